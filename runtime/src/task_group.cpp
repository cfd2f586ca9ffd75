#include "task_group.hpp"

#include "host_wait.hpp"
#include "runtime_core.hpp"
#include "scheduler.hpp"
#include "significance.hpp"

#include <cei/budget.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <span>

namespace cei::rt {

namespace {

thread_local std::vector<std::unique_ptr<TaskGroup>> open_groups;
std::atomic<std::uint64_t> next_group{1};

// What an approximate version costs, as a share of the accurate one's time and energy, while the
// profiles have not measured it on the platform.
constexpr double kApproximateShare = 0.5;

// The task's significance, when the arguments its expression reads are on the host: a group is
// planned before its own tasks run, so an expression over the output of one of them counts as
// 100, as the significance rule counts an expression it cannot read. One over scalar parameters
// is read whatever the task's arrays still wait for.
int significance_now(const TaskImpl& t) {
  return significance_if_readable(t.ce(), t.args()).value_or(100);
}

// The fastest accurate option: where a plan that changed nothing about the task puts it.
std::size_t fastest_accurate(const PlanTask& t) {
  std::size_t best = PlanChoice::kNone;
  for (std::size_t i = 0; i < t.options.size(); ++i)
    if (t.options[i].quality == Quality::Accurate &&
        (best == PlanChoice::kNone || t.options[i].end_s < t.options[best].end_s))
      best = i;
  return best;
}

// The scope objects of cei/budget.hpp reach the runtime through these: set at static
// initialisation, so that a group declared before the first task starts the runtime.
const bool hooked = [] {
  cei::detail::group_begin_hook = [](double budget_j, double ratio, const char* file,
                                     unsigned line) {
    open_group(Runtime::instance().impl(), {.budget_j = budget_j, .accurate_ratio = ratio},
               std::string(file) + ":" + std::to_string(line));
  };
  cei::detail::group_end_hook = [] { close_group(); };
  return true;
}();

}  // namespace

TaskGroup::TaskGroup(RuntimeCore& rt, GroupGoal goal, std::uint64_t id, std::string where)
    : rt_(rt), goal_(goal) {
  report_.id = id;
  report_.where = std::move(where);
  report_.budget_j = goal.budget_j;
  report_.accurate_ratio = goal.accurate_ratio;
  report_.step = to_string(PlanStep::Fastest);
}

TaskGroup* TaskGroup::current() noexcept {
  return open_groups.empty() ? nullptr : open_groups.back().get();
}

void TaskGroup::hold(TaskImpl& t) {
  held_.push_back(t.self);
}

TaskGroup::Spent TaskGroup::spent() const {
  Spent s;
  for (const Placed& p : placed_) {
    const bool settled = p.settles->state() != Version::State::Pending;
    const double measured = settled ? p.task->timing().energy_j : 0;
    if (measured > 0) {
      s.measured_j += measured;
      s.measured_forecast_j += p.forecast_j;
    } else {
      s.forecast_j += p.forecast_j;
    }
  }
  return s;
}

double TaskGroup::Spent::correction() const {
  return measured_j > 0 && measured_forecast_j > 0 ? measured_j / measured_forecast_j : 1;
}

PlanTask TaskGroup::options_of(TaskImpl& t) {
  const CeInfo& ce = t.ce();
  PlanTask pt;
  pt.significance = significance_now(t);
  // As the scheduler does: a task none of the platforms added so far can run waits for those
  // still opening (an OpenCL device, for a CE with kernels alone).
  if (rt_.opening() && std::none_of(rt_.platforms.begin(), rt_.platforms.end(),
                                    [&](const Platform* p) { return p->can_run(ce); }))
    rt_.open_all(Runtime::instance());
  for (Platform* p : rt_.platforms) {
    if (!p->can_run(ce)) continue;
    const Forecast f = p->forecast(t);  // t is Accurate until the plan decides
    const bool accurate = f.feasible && serves(*p, ce, Quality::Accurate);
    // A remote node runs the program's accurate version only (serves() says so).
    Forecast approximation{};
    bool approximate = false;
    if (serves(*p, ce, Quality::Approximate)) {
      t.quality_ = Quality::Approximate;  // the approximation's forecast: its own profile
      approximation = p->forecast(t);
      t.quality_ = Quality::Accurate;
      if (accurate && approximation.time_source == Source::Default) {
        approximation.end_s = f.end_s - f.exec_s * (1 - kApproximateShare);
        approximation.energy_j = f.energy_j * kApproximateShare;
      }
      approximate = approximation.feasible;
    }
    if (!accurate && !approximate) continue;
    const std::size_t at = platforms_.size();
    platforms_.push_back(p);
    if (accurate) pt.options.push_back({at, Quality::Accurate, f.end_s, f.energy_j});
    if (approximate)
      pt.options.push_back({at, Quality::Approximate, approximation.end_s, approximation.energy_j});
    // A dropped task is the CPU's to settle: it publishes the inout values as they were.
    if (serves(*p, ce, Quality::Dropped)) pt.droppable = ce.droppable;
  }
  return pt;
}

std::size_t TaskGroup::window(std::size_t tasks) const {
  std::vector<const Platform*> seen;
  std::size_t workers = 0;
  for (const Platform* p : platforms_)
    if (std::find(seen.begin(), seen.end(), p) == seen.end()) {
      seen.push_back(p);
      workers += p->workers();
    }
  // A large group keeps more in flight: its batches, a quarter window, then bound the number of
  // plans (each O(n log n)) to about 256.
  return std::max<std::size_t>({2 * workers, tasks / 64, 1});
}

std::size_t TaskGroup::in_flight(std::size_t& oldest) const {
  auto pending = [this](std::size_t i) {
    return placed_[i].settles && placed_[i].settles->state() == Version::State::Pending;
  };
  while (oldest < placed_.size() && !pending(oldest)) ++oldest;
  std::size_t n = 0;
  for (std::size_t i = oldest; i < placed_.size(); ++i) n += pending(i) ? 1 : 0;
  return n;
}

void TaskGroup::place(TaskImpl& t, const PlanTask& options, const PlanChoice& c) {
  const bool placeable = c.option != PlanChoice::kNone;
  // A task no platform can run (no option) goes to the scheduler, which fails it as usual.
  t.quality_ = placeable || c.quality == Quality::Dropped ? c.quality : Quality::Accurate;
  t.significance_ = options.significance;
  t.quality_decided = true;
  report_.tasks.emplace_back(t.id(), t.quality_);
  const double forecast_j = placeable ? options.options[c.option].energy_j : 0;
  report_.forecast_j += forecast_j;
  VersionPtr settles = t.done;
  for (const auto& a : t.args())
    if (!settles && a.out) settles = a.out;
  placed_.push_back({t.self, settles, forecast_j});
  // Unchanged by the plan, or dropped: the policy places it (among the platforms that serve its
  // quality), seeing the queues that the forecasts of a whole group made at once do not. Moved
  // or approximated: where the plan put it.
  if (!placeable || c.option == fastest_accurate(options))
    rt_.scheduler().dispatch(t);
  else
    rt_.scheduler().dispatch(t, {.only = platforms_[options.options[c.option].platform]});
}

void TaskGroup::flush() {
  if (held_.empty()) return;
  std::vector<TaskPtr> held = std::move(held_);
  held_.clear();
  std::vector<PlanTask> tasks;
  tasks.reserve(held.size());
  platforms_.clear();
  for (const TaskPtr& t : held) tasks.push_back(options_of(*impl(t.get())));
  const Spent before = spent();
  const double spent_before = before.measured_j + before.forecast_j;
  report_.accurate_j = plan_group({}, tasks, spent_before).energy_j;
  report_.floor_j = plan_group({.budget_j = 0}, tasks, spent_before).energy_j;
  // Closed loop under a budget: at most `window` of the group's tasks are in flight, so each
  // task not yet dispatched is planned again with what those that settled measured; tasks are
  // dispatched in batches of a quarter window, which bounds the number of plans. A ratio (or
  // no budget) needs no measurement: one plan, every task dispatched at once.
  const bool closed_loop = !std::isinf(goal_.budget_j);
  const std::size_t window = closed_loop ? this->window(held.size()) : held.size();
  const std::size_t batch = std::max<std::size_t>(window / 4, 1);
  std::size_t oldest = placed_.size();
  for (std::size_t next = 0; next < held.size();) {
    std::size_t running = in_flight(oldest);
    // Settled in any order, waited for in the order dispatched: the oldest is the likeliest done.
    while (running + batch > window) {
      wait_ready(*placed_[oldest].settles);
      running = in_flight(oldest);
    }
    // The forecasts of the tasks still to spend (running or not yet measured, and those planned
    // now) are taken to be off by as much as those of the measured tasks were (c):
    //   measured + c x (forecasts + plan) <= budget
    //   <=>  forecasts + plan <= (budget - measured) / c
    const Spent so_far = spent();
    GroupGoal left = goal_;
    left.budget_j = (goal_.budget_j - so_far.measured_j) / so_far.correction();
    const GroupPlan plan = plan_group(left, std::span(tasks).subspan(next), so_far.forecast_j);
    if (plan.step > furthest_) furthest_ = plan.step;
    report_.step = to_string(furthest_);
    // Whether the budget is in reach is the whole flush's plan's to say: a later batch's plan
    // may miss by what the running tasks are still to spend, which the summary explains.
    if (next == 0) report_.meets_budget = plan.meets_budget;
    const std::size_t end = std::min(held.size(), next + (window - running));
    for (std::size_t i = next; i < end; ++i)
      place(*impl(held[i].get()), tasks[i], plan.choices[i - next]);
    next = end;
  }
}

void TaskGroup::close() {
  flush();
  for (const Placed& p : placed_)
    if (p.settles) wait_ready(*p.settles);
  observe_group_closed(report_);
}

void open_group(RuntimeCore& rt, GroupGoal goal, std::string where) {
  // The enclosing group's tasks so far are planned under its own goal.
  flush_group();
  open_groups.push_back(std::make_unique<TaskGroup>(
      rt, goal, next_group.fetch_add(1, std::memory_order_relaxed), std::move(where)));
}

void close_group() {
  if (open_groups.empty()) return;
  open_groups.back()->close();
  open_groups.pop_back();
}

void flush_group() {
  if (TaskGroup* g = TaskGroup::current()) g->flush();
}

}  // namespace cei::rt
