#include "task_group.hpp"

#include "host_wait.hpp"
#include "runtime_core.hpp"
#include "significance.hpp"

#include <cei/budget.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

namespace cei::rt {

namespace {

thread_local std::vector<std::unique_ptr<TaskGroup>> open_groups;
std::atomic<std::uint64_t> next_group{1};

// What an approximate version costs, as a share of the accurate one's time and energy, while the
// profiles have not measured both on the platform.
constexpr double kApproximateShare = 0.5;

int first_version(const CeInfo& ce, bool approximate) {
  for (std::size_t v = 0; v < ce.nversions; ++v)
    if (ce.versions[v].approximate == approximate) return static_cast<int>(v);
  return -1;
}

// The approximate version's time over the accurate one's on p, as the profiles predict them.
double approximate_share(RuntimeCore& rt, const TaskImpl& t, const Platform& p, int accurate,
                         int approximate) {
  if (!rt.profiles) return kApproximateShare;
  double bytes = 0;
  for (const auto& a : t.args())
    if (a.in) bytes += static_cast<double>(a.in->bytes());
  const Prediction acc = rt.profiles->predict(t.ce(), accurate, p.name(), bytes);
  const Prediction apx = rt.profiles->predict(t.ce(), approximate, p.name(), bytes);
  if (acc.source == Source::Default || apx.source == Source::Default || acc.seconds <= 0)
    return kApproximateShare;
  return apx.seconds / acc.seconds;
}

// The task's significance, when the inputs its expression may read are on the host: a group is
// planned before its own tasks run, so an expression over the output of one of them counts as
// 100, as the significance rule counts an expression it cannot read.
int significance_now(const TaskImpl& t) {
  const char* expr = t.ce().significance;
  if (!expr) return 100;
  const bool reads_parameters = std::strstr(expr, "par") != nullptr;
  for (const auto& a : t.args())
    if (reads_parameters && a.in && !a.in->host()) return 100;
  return significance_of(t.ce(), t.args());
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

double TaskGroup::spent_j() const {
  double j = 0;
  for (const Placed& p : placed_) {
    const bool settled = p.settles->state() != Version::State::Pending;
    const double measured = settled ? p.task->timing().energy_j : 0;
    j += measured > 0 ? measured : p.forecast_j;
  }
  return j;
}

PlanTask TaskGroup::options_of(TaskImpl& t) {
  const CeInfo& ce = t.ce();
  PlanTask pt;
  pt.significance = significance_now(t);
  const int accurate = first_version(ce, false), approximate = first_version(ce, true);
  for (Platform* p : rt_.platforms) {
    if (!p->can_run(ce)) continue;
    const Forecast f = p->forecast(t);
    if (!f.feasible) continue;
    const std::size_t at = platforms_.size();
    platforms_.push_back(p);
    pt.options.push_back({at, Quality::Accurate, f.end_s, f.energy_j});
    // A dropped task is the CPU's to settle: it publishes the inout values as they were.
    if (p->capabilities().has(Capabilities::PicksVersion)) pt.droppable = ce.droppable;
    // The scheduler picks an approximate native version only where it picks versions.
    if (approximate >= 0 && accurate >= 0 && p->capabilities().has(Capabilities::PicksVersion)) {
      const double share = approximate_share(rt_, t, *p, accurate, approximate);
      pt.options.push_back(
          {at, Quality::Approximate, f.end_s - f.exec_s * (1 - share), f.energy_j * share});
    }
  }
  return pt;
}

void TaskGroup::flush() {
  if (held_.empty()) return;
  std::vector<PlanTask> tasks;
  tasks.reserve(held_.size());
  platforms_.clear();
  for (const TaskPtr& t : held_) tasks.push_back(options_of(*impl(t.get())));
  const GroupPlan plan = plan_group(goal_, tasks, spent_j());
  if (plan.step > furthest_) furthest_ = plan.step;
  report_.step = to_string(furthest_);
  report_.meets_budget = plan.meets_budget;
  std::vector<TaskPtr> held = std::move(held_);
  held_.clear();
  for (std::size_t i = 0; i < held.size(); ++i) {
    TaskImpl& t = *impl(held[i].get());
    const PlanChoice& c = plan.choices[i];
    const bool placeable = c.option != PlanChoice::kNone;
    // A task no platform can run (no option) goes to the scheduler, which fails it as usual.
    t.quality_ = placeable || c.quality == Quality::Dropped ? c.quality : Quality::Accurate;
    t.significance_ = tasks[i].significance;
    t.quality_decided = true;
    report_.tasks.emplace_back(t.id(), t.quality_);
    VersionPtr settles = t.done;
    for (const auto& a : t.args())
      if (!settles && a.out) settles = a.out;
    placed_.push_back({held[i], settles, placeable ? tasks[i].options[c.option].energy_j : 0});
    // Unchanged by the plan, or dropped: the policy places it (among the platforms that serve its
    // quality), seeing the queues that the forecasts of a whole group made at once do not. Moved
    // or approximated: where the plan put it.
    if (!placeable || c.option == fastest_accurate(tasks[i]))
      rt_.scheduler().dispatch(t);
    else
      rt_.scheduler().dispatch(t, {.only = platforms_[tasks[i].options[c.option].platform]});
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
