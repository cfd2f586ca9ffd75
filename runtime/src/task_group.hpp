// The runtime's side of cei::EnergyBudget and cei::AccuracyRatio (cei/budget.hpp). A group holds
// the tasks that its thread submits and plans them together (decision/group_plan.hpp) when the
// program next waits for anything (a host sync, a result's get, a barrier, the end of a variable's
// scope, a full in-flight window: everything that could wait for a held task) or when it ends;
// each task is then dispatched on the platform and at the quality planned for it (its
// TaskImpl::quality_, decided here instead of by the significance rule). Under an energy budget
// the plan is a closed loop: the flush keeps at most a window of the group's tasks in flight
// (twice the workers of the platforms that can run them, or a 64th of the tasks) and plans the
// tasks not yet dispatched again as others settle, with what the group spent so far (the platform's
// figure where a task has settled with one, else its forecast) taken from the budget and the other
// forecasts scaled by how far the measured tasks' forecasts missed, so that later tasks make up for
// the forecasts' errors on earlier ones. The end of the group waits for its tasks and reports it to
// the observers (GroupReport).
//
//   open_group(rt, {.budget_j = 300}, "main.cpp:12");
//   ... RuntimeCore::submit: if (TaskGroup* g = TaskGroup::current()) g->hold(t);
//   flush_group();   // at every host wait
//   close_group();   // the scope object's end
//
// Thread-safety: a group is used by the thread that opened it only (thread_local).
#pragma once

#include "task_impl.hpp"

#include <cei/rt/decision/group_plan.hpp>
#include <cei/rt/observer.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cei::rt {

class RuntimeCore;

class TaskGroup {
 public:
  TaskGroup(RuntimeCore& rt, GroupGoal goal, std::uint64_t id, std::string where);
  // The innermost group open on the calling thread, or null.
  static TaskGroup* current() noexcept;
  void hold(TaskImpl& t);  // t is built and linked, not dispatched
  // Plans the tasks held and dispatches them; under a budget, returns once the last is
  // dispatched (a window of them may still run).
  void flush();
  void close();  // flush, wait for every task of the group, report it

 private:
  struct Placed {
    TaskPtr task;
    VersionPtr settles;  // ready once the task has settled
    double forecast_j;
  };
  // What the group's dispatched tasks spent: measured (the platform's figure at settling, with
  // those tasks' forecasts beside it) and forecast (the others).
  struct Spent {
    double measured_j = 0, measured_forecast_j = 0, forecast_j = 0;
    double correction() const;  // measured over forecast, of the measured tasks (1: none)
  };
  Spent spent() const;
  PlanTask options_of(TaskImpl& t);
  // How many of `tasks` held tasks the closed loop keeps in flight.
  std::size_t window(std::size_t tasks) const;
  // How many of placed_[oldest..] have not settled; moves `oldest` past those that have.
  std::size_t in_flight(std::size_t& oldest) const;
  // Gives t the choice c among its options, dispatches it and remembers it in placed_.
  void place(TaskImpl& t, const PlanTask& options, const PlanChoice& c);

  RuntimeCore& rt_;
  GroupGoal goal_;
  GroupReport report_;
  std::vector<TaskPtr> held_;
  std::vector<Placed> placed_;
  // The platform of each option of the plan being made (PlanOption::platform indexes it).
  std::vector<Platform*> platforms_;
  PlanStep furthest_ = PlanStep::Fastest;  // over every flush
};

// The calling thread's groups: opened by the scope object's constructor, closed by its destructor.
void open_group(RuntimeCore& rt, GroupGoal goal, std::string where);
void close_group();
// Plans and dispatches what the calling thread's groups hold; nothing when they hold nothing.
void flush_group();

}  // namespace cei::rt
