#include <cei/rt/decision/group_plan.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cei::rt {

namespace {

// The option of `q` that `better` ranks first (ties: the lower index); kNone when there is none.
template <typename Better>
std::size_t best_of(const PlanTask& t, Quality q, Better better) {
  std::size_t best = PlanChoice::kNone;
  for (std::size_t i = 0; i < t.options.size(); ++i)
    if (t.options[i].quality == q &&
        (best == PlanChoice::kNone || better(t.options[i], t.options[best])))
      best = i;
  return best;
}

std::size_t fastest(const PlanTask& t, Quality q) {
  return best_of(t, q, [](const PlanOption& a, const PlanOption& b) { return a.end_s < b.end_s; });
}

std::size_t least_energy(const PlanTask& t, Quality q) {
  return best_of(t, q, [](const PlanOption& a, const PlanOption& b) {
    return a.energy_j < b.energy_j || (a.energy_j == b.energy_j && a.end_s < b.end_s);
  });
}

// A task with no option (no platform can run it) costs nothing here: the scheduler fails it.
double energy_of(const PlanTask& t, const PlanChoice& c) {
  return c.option == PlanChoice::kNone ? 0.0 : t.options[c.option].energy_j;
}

// A task's choice at the start: its fastest accurate option, unless significance 0 sends it to
// its fastest approximation, or drops it when it is droppable and has none.
PlanChoice initial(const PlanTask& t) {
  if (t.significance <= 0) {
    if (std::size_t a = fastest(t, Quality::Approximate); a != PlanChoice::kNone)
      return {a, Quality::Approximate};
    if (t.droppable) return {PlanChoice::kNone, Quality::Dropped};
  }
  return {fastest(t, Quality::Accurate), Quality::Accurate};
}

}  // namespace

const char* to_string(PlanStep s) {
  switch (s) {
    case PlanStep::Fastest:
      return "fastest";
    case PlanStep::LeastEnergy:
      return "least-energy";
    case PlanStep::Approximate:
      return "approximate";
    case PlanStep::Drop:
      return "drop";
  }
  return "?";
}

GroupPlan plan_group(const GroupGoal& goal, std::span<const PlanTask> tasks, double spent_j) {
  GroupPlan plan;
  plan.choices.reserve(tasks.size());
  for (const PlanTask& t : tasks) plan.choices.push_back(initial(t));
  auto total = [&] {
    double e = spent_j;
    for (std::size_t i = 0; i < tasks.size(); ++i) e += energy_of(tasks[i], plan.choices[i]);
    return e;
  };
  // Least significant first; a stable sort keeps the earlier task first among equals.
  std::vector<std::size_t> order(tasks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return tasks[a].significance < tasks[b].significance;
  });

  if (goal.accurate_ratio >= 0) {
    const auto n = static_cast<double>(tasks.size());
    const auto min_accurate = static_cast<std::size_t>(std::ceil(goal.accurate_ratio * n - 1e-9));
    std::size_t accurate = 0;
    for (const PlanChoice& c : plan.choices) accurate += c.quality == Quality::Accurate ? 1 : 0;
    // The tasks that may be approximated, the largest saving first.
    std::vector<std::pair<double, std::size_t>> savings;
    for (std::size_t i : order) {
      const PlanTask& t = tasks[i];
      if (plan.choices[i].quality != Quality::Accurate || t.significance >= 100) continue;
      const std::size_t a = fastest(t, Quality::Approximate);
      if (a == PlanChoice::kNone) continue;
      savings.emplace_back(energy_of(t, plan.choices[i]) - t.options[a].energy_j, i);
    }
    std::stable_sort(savings.begin(), savings.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [saved, i] : savings) {
      if (accurate <= min_accurate) break;
      plan.choices[i] = {fastest(tasks[i], Quality::Approximate), Quality::Approximate};
      --accurate;
    }
  }

  plan.energy_j = total();
  if (!(plan.energy_j > goal.budget_j)) return plan;

  // One step of the order: `change` proposes a task's new choice (or returns false).
  auto take_step = [&](PlanStep step, auto change) {
    for (std::size_t i : order) {
      if (!(plan.energy_j > goal.budget_j)) return true;
      PlanChoice next = plan.choices[i];
      if (!change(tasks[i], next)) continue;
      // Kept as a running sum: the closed loop plans a group's remaining tasks again and again.
      plan.energy_j += energy_of(tasks[i], next) - energy_of(tasks[i], plan.choices[i]);
      plan.choices[i] = next;
      plan.step = step;
    }
    return !(plan.energy_j > goal.budget_j);
  };
  const bool met = take_step(PlanStep::LeastEnergy,
                             [](const PlanTask& t, PlanChoice& c) {
                               if (c.option == PlanChoice::kNone) return false;
                               const std::size_t e = least_energy(t, c.quality);
                               if (t.options[e].energy_j >= t.options[c.option].energy_j)
                                 return false;
                               c.option = e;
                               return true;
                             }) ||
                   take_step(PlanStep::Approximate,
                             [](const PlanTask& t, PlanChoice& c) {
                               if (c.quality != Quality::Accurate || t.significance >= 100)
                                 return false;
                               const std::size_t a = least_energy(t, Quality::Approximate);
                               if (a == PlanChoice::kNone) return false;
                               c = {a, Quality::Approximate};
                               return true;
                             }) ||
                   take_step(PlanStep::Drop, [](const PlanTask& t, PlanChoice& c) {
                     if (c.quality != Quality::Accurate || t.significance >= 100 || !t.droppable ||
                         fastest(t, Quality::Approximate) != PlanChoice::kNone)
                       return false;
                     c = {PlanChoice::kNone, Quality::Dropped};
                     return true;
                   });
  plan.meets_budget = met;
  return plan;
}

}  // namespace cei::rt
