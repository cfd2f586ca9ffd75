// The plan of a task group under an energy budget or an accuracy ratio (the scope objects
// cei::EnergyBudget and cei::AccuracyRatio; docs/language.md, docs/policies.md). Pure: the
// runtime gathers each task's options (platform x quality, with forecast end and energy) and
// applies the choices.
//
// Energy budget, in the order of Centaurus (seed 000), each step taken only while the group's
// energy (spent so far + the plan's forecasts) exceeds the budget, and task by task from the
// least significant (ties: the earlier task first):
//   Fastest       every task on its earliest-ending accurate option
//   LeastEnergy   a task moves to its least-energy option of the same quality
//   Approximate   a task (significance < 100) runs its least-energy approximate option
//   Drop          a droppable task (significance < 100) with no approximate option is dropped
// A task of significance 0 is approximate (or dropped, when droppable and without approximation)
// from the start; one of significance 100 never leaves Accurate.
// Accuracy ratio r: at least ceil(r * n) of the n tasks accurate; of the others, those whose
// approximation saves the most energy (over their fastest accurate option) run approximate.
//
//   GroupGoal goal{.budget_j = 300};
//   GroupPlan plan = plan_group(goal, tasks, /*spent_j=*/42.0);
//   for (i...) run tasks[i] as tasks[i].options[plan.choices[i].option] (or drop it)
#pragma once

#include <cei/rt/platform.hpp>

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace cei::rt {

struct GroupGoal {
  double budget_j = std::numeric_limits<double>::infinity();  // joules for the whole group
  // 0..1: the least share of the group's tasks that run accurate (0: any may be approximate);
  // < 0: no ratio.
  double accurate_ratio = -1;
};

struct PlanOption {
  std::size_t platform = 0;             // the caller's index
  Quality quality = Quality::Accurate;  // Accurate or Approximate
  double end_s = 0, energy_j = 0;       // forecasts
};

struct PlanTask {
  int significance = 100;  // 0..100
  bool droppable = false;
  std::vector<PlanOption> options;  // at least one accurate option
};

// The furthest step of the budget order the plan needed (Fastest when the budget was met at once).
enum class PlanStep { Fastest, LeastEnergy, Approximate, Drop };
const char* to_string(PlanStep s);

struct PlanChoice {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t option = kNone;  // into PlanTask::options; kNone when dropped
  Quality quality = Quality::Accurate;
};

struct GroupPlan {
  std::vector<PlanChoice> choices;  // one per task, in order
  double energy_j = 0;              // spent_j + the chosen options' forecasts
  PlanStep step = PlanStep::Fastest;
  bool meets_budget = true;  // false: even the last step left the group above its budget
};

// spent_j: what the group's earlier tasks already cost (measured where the meters said).
GroupPlan plan_group(const GroupGoal& goal, std::span<const PlanTask> tasks, double spent_j = 0);

}  // namespace cei::rt
