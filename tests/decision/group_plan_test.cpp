#include <cei/rt/decision/group_plan.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace cei::rt::test {
namespace {

// Two platforms: 0 is fast and costly (a GPU), 1 slow and frugal (the CPU). Each accurate task
// costs 10 J on 0 and 6 J on 1; an approximation costs 3 J on 0 and 2 J on 1.
PlanTask task(int significance, bool approximable, bool droppable = false) {
  PlanTask t;
  t.significance = significance;
  t.droppable = droppable;
  t.options = {{0, Quality::Accurate, 1.0, 10.0}, {1, Quality::Accurate, 4.0, 6.0}};
  if (approximable)
    t.options.insert(t.options.end(),
                     {{0, Quality::Approximate, 0.5, 3.0}, {1, Quality::Approximate, 2.0, 2.0}});
  return t;
}

// The group of the budget tests: significance 20 (approximable), 50 (droppable, no
// approximation), 80 (approximable), 100 (approximable but always accurate).
std::vector<PlanTask> group() {
  return {task(20, true), task(50, false, true), task(80, true), task(100, true)};
}

std::vector<Quality> qualities(const GroupPlan& p) {
  std::vector<Quality> q;
  for (const PlanChoice& c : p.choices) q.push_back(c.quality);
  return q;
}

constexpr Quality A = Quality::Accurate, X = Quality::Approximate, D = Quality::Dropped;

TEST(GroupPlan, NoBudgetRunsEveryTaskAccurateOnItsFastestPlatform) {
  const auto tasks = group();
  const GroupPlan p = plan_group({}, tasks);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{A, A, A, A}));
  for (const PlanChoice& c : p.choices) EXPECT_EQ(c.option, 0u);
  EXPECT_EQ(p.step, PlanStep::Fastest);
  EXPECT_TRUE(p.meets_budget);
  EXPECT_DOUBLE_EQ(p.energy_j, 40);
}

// Lowering the budget reaches each step of the Centaurus order in turn.
TEST(GroupPlan, EachStepIsReachedInTurnByLoweringTheBudget) {
  const auto tasks = group();
  GroupPlan p = plan_group({.budget_j = 40}, tasks);  // the fastest plan fits exactly
  EXPECT_EQ(p.step, PlanStep::Fastest);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{A, A, A, A}));

  // 36 J: one task moves to the frugal platform, the least significant one.
  p = plan_group({.budget_j = 36}, tasks);
  EXPECT_EQ(p.step, PlanStep::LeastEnergy);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{A, A, A, A}));
  EXPECT_EQ(p.choices[0].option, 1u);
  EXPECT_EQ(p.choices[1].option, 0u);
  EXPECT_DOUBLE_EQ(p.energy_j, 36);

  // Everything on the frugal platform costs 24 J: 20 J needs the least significant approximated.
  p = plan_group({.budget_j = 20}, tasks);
  EXPECT_EQ(p.step, PlanStep::Approximate);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X, A, A, A}));
  EXPECT_EQ(p.choices[0].option, 3u);  // the approximation's least-energy option
  EXPECT_DOUBLE_EQ(p.energy_j, 20);

  // Approximating both approximable tasks of significance < 100 gives 16 J; 12 J drops the
  // droppable one too; the significance-100 task stays accurate.
  p = plan_group({.budget_j = 12}, tasks);
  EXPECT_EQ(p.step, PlanStep::Drop);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X, D, X, A}));
  EXPECT_TRUE(p.meets_budget);
  EXPECT_DOUBLE_EQ(p.energy_j, 10);

  // Below what the last step reaches: the plan says so, and keeps that last step's choices.
  p = plan_group({.budget_j = 5}, tasks);
  EXPECT_EQ(p.step, PlanStep::Drop);
  EXPECT_FALSE(p.meets_budget);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X, D, X, A}));
}

TEST(GroupPlan, EnergySpentSoFarCountsAgainstTheBudget) {
  const auto tasks = group();
  EXPECT_EQ(plan_group({.budget_j = 40}, tasks, 0).step, PlanStep::Fastest);
  EXPECT_EQ(plan_group({.budget_j = 40}, tasks, 4).step, PlanStep::LeastEnergy);
  EXPECT_DOUBLE_EQ(plan_group({.budget_j = 40}, tasks, 4).energy_j, 40);
}

TEST(GroupPlan, SignificanceZeroApproximatesOrDropsFromTheStart) {
  const std::vector<PlanTask> tasks{task(0, true), task(0, false, true), task(0, false)};
  const GroupPlan p = plan_group({}, tasks);
  // Approximate where it can; dropped when droppable; otherwise accurate (nothing else runs it).
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X, D, A}));
  EXPECT_EQ(p.choices[0].option, 2u);  // the fastest approximation
}

TEST(GroupPlan, RatioKeepsThatShareAccurateAndApproximatesWhereItSavesMost) {
  std::vector<PlanTask> tasks{task(50, true), task(50, true), task(50, true), task(50, true),
                              task(50, false)};
  // The third task's approximation saves the most: its accurate option costs more.
  tasks[2].options[0].energy_j = 30;
  GroupPlan p = plan_group({.accurate_ratio = 0.8}, tasks);  // 4 of 5 accurate
  EXPECT_EQ(qualities(p), (std::vector<Quality>{A, A, X, A, A}));
  p = plan_group({.accurate_ratio = 0.5}, tasks);  // ceil(2.5) = 3 accurate
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X, A, X, A, A}));
  p = plan_group({.accurate_ratio = 1.0}, tasks);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{A, A, A, A, A}));
  // Only the approximable tasks can give way: a ratio of 0.01 leaves the fifth one accurate.
  p = plan_group({.accurate_ratio = 0.01}, tasks);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X, X, X, X, A}));
  p = plan_group({.accurate_ratio = 0}, tasks);  // a ratio of 0: none need be accurate
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X, X, X, X, A}));
}

TEST(GroupPlan, DroppableTaskWithAnApproximationIsApproximatedNotDropped) {
  const std::vector<PlanTask> tasks{task(10, true, true)};
  const GroupPlan p = plan_group({.budget_j = 0.5}, tasks);
  EXPECT_EQ(qualities(p), (std::vector<Quality>{X}));
  EXPECT_FALSE(p.meets_budget);
}

// A task that no platform can run has no option: the plan leaves it to the scheduler (which fails
// it) and plans the others.
TEST(GroupPlan, ATaskWithNoOptionCostsNothingAndIsLeftAsItIs) {
  std::vector<PlanTask> tasks{PlanTask{}, task(10, true)};
  const GroupPlan p = plan_group({.budget_j = 1}, tasks);
  EXPECT_EQ(p.choices[0].option, PlanChoice::kNone);
  EXPECT_EQ(p.choices[0].quality, A);
  EXPECT_EQ(p.choices[1].quality, X);
  EXPECT_DOUBLE_EQ(p.energy_j, 2);
}

}  // namespace
}  // namespace cei::rt::test
