// What the runtime tells observers (trace writer, graph writer, run summary, progress line):
// every task's submission with the forecasts and the choice, its start and end, every transfer.
// Calls come from any thread; implementations must be thread-safe and cheap.
//
//   class Counter : public cei::rt::Observer { void task_finished(...) override { ++n; } };
//   cei::rt::add_observer(std::make_shared<Counter>());
#pragma once

#include <cei/rt/policy.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cei::rt {

struct Dependency {
  std::uint64_t producer_task;  // the task that wrote the version
  std::string version;          // "d3v2"
};

struct TransferEvent {
  const Platform* platform;
  std::uint64_t task;   // the task that needed it (0: a host sync)
  std::string version;  // "d3v2"
  std::size_t bytes;
  bool to_device;  // host -> platform, or platform -> host
  Clock::time_point start, end;
  // to_device only: the platform it came from when not the host (a node's fetch from the node
  // that made the value, docs/remote.md "Node-to-node transfers"); null: the host.
  const Platform* from = nullptr;
};

// A metered platform's account of the run so far: the energy its meter split among the tasks it
// ran, the energy of the time none ran (idle: the platform's static power, and whatever else ran
// on the metered domain), what waits for a task still running (0 at shutdown), and the meter's
// total; tasks_j + idle_j + pending_j == total_j.
struct PlatformEnergy {
  double tasks_j = 0, idle_j = 0, pending_j = 0, total_j = 0;
  double seconds = 0;       // the span the meter covered
  const char* source = "";  // "rapl", "nvml"
};

// The end of a task group (cei::EnergyBudget, cei::AccuracyRatio): its goal, how far the budget
// order went (decision/group_plan.hpp), and the quality each of its tasks was given.
struct GroupReport {
  std::uint64_t id = 0;  // 1, 2, ... in the order the groups opened
  std::string where;     // the scope object's "file:line"
  double budget_j = std::numeric_limits<double>::infinity();  // infinity: none
  double accurate_ratio = -1;                                 // < 0: none
  std::string step;  // the furthest step of the budget order: "fastest" when none was needed
  // false: the plan of the group's last flush (every task it held, before any ran) stayed above
  // the budget even at the last step of the order.
  bool meets_budget = true;
  // Forecasts, for the summary to say why a group ended far from its budget: every task on its
  // fastest accurate option (the accurate plan), the least the group could cost (each task of
  // significance < 100 approximate or dropped), and the options the group's tasks were given.
  double accurate_j = 0, floor_j = 0, forecast_j = 0;
  std::vector<std::pair<std::uint64_t, Quality>> tasks;  // task id, quality
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void task_submitted(const Task& t, std::span<const Dependency> deps,
                              std::span<const Candidate> candidates, std::size_t chosen,
                              const char* policy) = 0;
  // lane: the worker thread or device queue within the platform.
  virtual void task_started(const Task& t, const Platform& p, int lane) = 0;
  virtual void task_finished(const Task& t, const Platform& p, int lane, bool failed) = 0;
  virtual void transfer(const TransferEvent& e) = 0;
  // Second thoughts: `from` ran `lag` times behind its forecasts, gave back t (queued, not begun)
  // and the policy placed it on `to`, where it was submitted again (task_submitted again, with the
  // forecasts of that placement). `lag` 0: `from` was revisited because a device opened, not for
  // being late.
  virtual void task_replaced(const Task& /*t*/, const Platform& /*from*/, const Platform& /*to*/,
                             double /*lag*/) {}
  // Measured energy comes after the task finished, once the meter's samples cover its end:
  // joules to add to what its Timing said (energy_j, 0 for a metered task), from the meter
  // `source`. Once per run of the task, from any thread, before or after task_finished.
  virtual void task_energy(std::uint64_t /*task*/, const Platform& /*p*/, double /*joules*/,
                           const char* /*source*/) {}
  // A metered platform's account, when Runtime::drain returns and at shutdown (before
  // run_finished); each one replaces the platform's previous one.
  virtual void platform_energy(const Platform& /*p*/, const PlatformEnergy& /*e*/) {}
  // A platform reported itself gone (`lost`: Runtime::platform_failed) or usable again
  // (Runtime::platform_readmitted, a node that answers its health checks again).
  virtual void platform_membership(const Platform& /*p*/, bool /*lost*/) {}
  // A platform added during the run joined it (Runtime::platform_joined: a node that appeared in
  // CEI_REMOTE_JOIN's folder, docs/remote.md).
  virtual void platform_joined(const Platform& /*p*/) {}
  // A task group ended: every task of it has settled (its measured energy may come later).
  virtual void group_closed(const GroupReport& /*g*/) {}
  virtual void run_finished() = 0;  // the runtime drained at exit: write files, print summaries
};

void add_observer(std::shared_ptr<Observer> o);

}  // namespace cei::rt
