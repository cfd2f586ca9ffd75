// Task groups under an energy budget or an accuracy ratio (cei::EnergyBudget, cei::AccuracyRatio)
// in the real runtime, with the CE tables written by hand: a CE with an accurate and an
// approximate native version, whose results tell which one ran. The group's plan is deterministic
// here: on the CPU platform alone a budget of 0 J leaves nothing to move, so every task of
// significance < 100 is approximated; a budget far above the forecasts changes nothing. A CE of
// OpenCL kernels alone (accurate and approximate) runs on the first OpenCL device (PoCL here),
// the only platform that can run it.
#include <cei/array.hpp>
#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rt = cei::rt;

namespace {

std::atomic<int> settled{0};
// accurate: x = 3x + 1; approximate: x = 3x.
void accurate(void* const* a) {
  auto& x = *static_cast<std::int64_t*>(a[0]);
  x = 3 * x + 1;
  ++settled;
}
void approximate(void* const* a) {
  auto& x = *static_cast<std::int64_t*>(a[0]);
  x = 3 * x;
  ++settled;
}
const rt::ParamInfo params[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()}};
const rt::NativeVersion versions[] = {{"acc", &accurate}, {"apx", &approximate, true}};
const rt::CeInfo triple{"triple", "GroupCEI", false,   params, 1,       nullptr,
                        versions, 2,          nullptr, {},     nullptr, "50"};
// Droppable, of significance 10, with no approximation: x = x + 100.
void add_hundred(void* const* a) {
  *static_cast<std::int64_t*>(a[0]) += 100;
}
const rt::NativeVersion add_versions[] = {{"acc", &add_hundred}};
const rt::CeInfo blur{"blur", "GroupCEI", false, params,  1,    nullptr, add_versions,
                      1,      nullptr,    {},    nullptr, "10", true};
// The same versions, of significance 100 (no [[cei::significance]]): never approximated.
const rt::CeInfo vital{"vital", "GroupCEI", false, params, 1, nullptr, versions, 2, nullptr};

// Its accurate version takes 40 ms (the CPU's power model charges 15 W for it: 0.6 J), far
// more than the forecast of a CE with no profile (1 ms); its approximation takes nothing.
void slow_accurate(void* const* a) {
  std::this_thread::sleep_for(std::chrono::milliseconds(40));  // stands for 40 ms of work
  accurate(a);
}
const rt::NativeVersion slow_versions[] = {{"acc", &slow_accurate}, {"apx", &approximate, true}};
const rt::CeInfo slow{"slow",        "GroupCEI", false,   params, 1,       nullptr,
                      slow_versions, 2,          nullptr, {},     nullptr, "50"};

// Of significance "par1", an int parameter: x = 3x + 1, or 3x approximated.
const rt::ParamInfo scaled_params[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()},
                                       {"weight", rt::Dir::In, &rt::type_ops<int>()}};
const rt::CeInfo scaled{"scaled", "GroupCEI", false,   scaled_params, 2,       nullptr,
                        versions, 2,          nullptr, {},            nullptr, "par1"};
// Holds x pending until the group has placed a task of `scaled`: x = x + 0.
std::atomic<bool> gate_open{false};
void gate(void* const*) {
  while (!gate_open.load()) std::this_thread::yield();
}
const rt::NativeVersion gate_versions[] = {{"acc", &gate}};
const rt::CeInfo gated{"gated", "GroupCEI", false, params, 1, nullptr, gate_versions, 1, nullptr};

// Kernels alone (the OpenCL device is the only platform that runs it): the accurate kernel adds
// 1 to every element, the approximate one ([[cei::opencl(..., approximate = true)]]) adds 2.
constexpr const char* kShiftSource = R"CL(
__kernel void shift(__global int* v) { v[get_global_id(0)] += 1; }
__kernel void shift_coarse(__global int* v) { v[get_global_id(0)] += 2; }
)CL";
using IVec = cei::Vector<int>;
const rt::OpenCLImpl shift_cl{"shift", kShiftSource, "group_test.cpp", "par0.x", "", "", ""};
const rt::OpenCLImpl shift_coarse_cl{
    "shift_coarse", kShiftSource, "group_test.cpp", "par0.x", "", "", ""};
const rt::ParamInfo shift_params[] = {{"v", rt::Dir::InOut, &rt::type_ops<IVec>()}};
const rt::CeInfo shift{"shift", "GroupCEI", false, shift_params,     1,   nullptr, nullptr,
                       0,       &shift_cl,  {},    &shift_coarse_cl, "50"};

struct Groups : rt::Observer {
  std::mutex mu;
  std::vector<rt::GroupReport> closed;
  void task_submitted(const rt::Task& t, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {
    if (&t.ce() == &scaled) gate_open = true;
  }
  void task_started(const rt::Task&, const rt::Platform&, int) override {}
  // Tasks that ran an approximation, by platform.
  std::map<std::string, int> approximated;
  void task_finished(const rt::Task& t, const rt::Platform& p, int, bool failed) override {
    std::lock_guard l(mu);
    if (!failed && t.quality() == rt::Quality::Approximate) ++approximated[p.name()];
  }
  void transfer(const rt::TransferEvent&) override {}
  void group_closed(const rt::GroupReport& g) override {
    std::lock_guard l(mu);
    closed.push_back(g);
  }
  void run_finished() override {}
  rt::GroupReport last() {
    std::lock_guard l(mu);
    return closed.back();
  }
};
std::shared_ptr<Groups> groups = std::make_shared<Groups>();

std::size_t count(const rt::GroupReport& g, rt::Quality q) {
  std::size_t n = 0;
  for (const auto& [id, quality] : g.tasks) n += quality == q ? 1 : 0;
  return n;
}

constexpr int kTasks = 8;

// Outside a group every task is accurate: the scheduler's turn of versions skips the approximate.
TEST(Groups, NoGroupRunsOnlyAccurateVersions) {
  std::int64_t x[kTasks];
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  for (int i = 0; i < kTasks; ++i) rt::call<void>(triple, rt::inout<std::int64_t>(x[i]));
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync(x[i]), 3 * i + 1);
}

TEST(Groups, ABudgetTheAccuratePlanMeetsGivesTheSequentialResults) {
  std::int64_t x[kTasks];
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  {
    cei::EnergyBudget budget(1e12);
    for (int i = 0; i < kTasks; ++i) rt::call<void>(triple, rt::inout<std::int64_t>(x[i]));
  }
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync(x[i]), 3 * i + 1);
  const rt::GroupReport g = groups->last();
  EXPECT_EQ(count(g, rt::Quality::Accurate), std::size_t{kTasks});
  EXPECT_EQ(g.step, "fastest");
  EXPECT_TRUE(g.meets_budget);
  EXPECT_NE(g.where.find("group_test.cpp:"), std::string::npos) << g.where;
}

TEST(Groups, ABindingBudgetApproximatesAndTheResultsAreTheApproximateVersions) {
  std::int64_t x[kTasks], y = 5;
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  {
    cei::EnergyBudget budget(0.0);
    for (int i = 0; i < kTasks; ++i) rt::call<void>(triple, rt::inout<std::int64_t>(x[i]));
    rt::call<void>(vital, rt::inout<std::int64_t>(y));
  }
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync(x[i]), 3 * i);
  EXPECT_EQ(rt::sync(y), 16);  // significance 100: accurate whatever the budget
  const rt::GroupReport g = groups->last();
  EXPECT_EQ(count(g, rt::Quality::Approximate), std::size_t{kTasks});
  EXPECT_EQ(count(g, rt::Quality::Accurate), 1u);
  EXPECT_EQ(g.step, "approximate");
  EXPECT_FALSE(g.meets_budget);  // 0 J: even the approximations cost something
}

// "par1" reads an int parameter, on the host from the call: the plan reads it while the tasks'
// arrays are still the pending outputs of earlier tasks (held by `gated` until the group places
// its first task), instead of counting it 100 and leaving nothing to approximate.
TEST(Groups, ASignificanceOverAScalarIsReadWhileTheArraysArePending) {
  static std::int64_t x[kTasks];  // off the stack, as below
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  gate_open = false;
  for (int i = 0; i < kTasks; ++i) rt::call<void>(gated, rt::inout<std::int64_t>(x[i]));
  {
    cei::EnergyBudget budget(0.0);
    for (int i = 0; i < kTasks; ++i)
      rt::call<void>(scaled, rt::inout<std::int64_t>(x[i]), rt::in<int>(50));
  }
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync(x[i]), 3 * i) << i;
  const rt::GroupReport g = groups->last();
  EXPECT_EQ(count(g, rt::Quality::Approximate), std::size_t{kTasks});
  EXPECT_EQ(g.step, "approximate");
}

// Dropped: the outputs keep the values they had, and the tasks after it read those.
TEST(Groups, ABindingBudgetDropsTheDroppableTasksWithNoApproximation) {
  std::int64_t x[kTasks];
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  for (int i = 0; i < kTasks; ++i) rt::call<void>(triple, rt::inout<std::int64_t>(x[i]));
  {
    cei::EnergyBudget budget(0.0);
    for (int i = 0; i < kTasks; ++i) rt::call<void>(blur, rt::inout<std::int64_t>(x[i]));
  }
  for (int i = 0; i < kTasks; ++i) rt::call<void>(triple, rt::inout<std::int64_t>(x[i]));
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync(x[i]), 3 * (3 * i + 1) + 1) << i;
  const rt::GroupReport g = groups->last();
  EXPECT_EQ(count(g, rt::Quality::Dropped), std::size_t{kTasks});
  EXPECT_EQ(g.step, "drop");
  // With a budget the plan meets, the same tasks run.
  {
    cei::EnergyBudget budget(1e12);
    for (int i = 0; i < kTasks; ++i) rt::call<void>(blur, rt::inout<std::int64_t>(x[i]));
  }
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync(x[i]), 3 * (3 * i + 1) + 1 + 100) << i;
}

// The closed loop: the forecasts (1 ms a task, no profile) fit the budget with every task
// accurate, so the first window of tasks (2 cores: 4) runs accurate; the first to settle
// measured 0.6 J, over the whole budget, so the tasks planned after it run approximate. A plan
// fixed at the flush ran all 24 accurate (14 J).
TEST(Groups, TheTasksAfterTheFirstMeasurementsArePlannedWithWhatTheySpent) {
  constexpr int n = 24;
  // Off the stack: the runtime knows data by address, and the tests below write their arrays
  // behind its back, so they must not land on addresses whose last values this test left there.
  static std::int64_t x[n];
  for (int i = 0; i < n; ++i) x[i] = i;
  {
    cei::EnergyBudget budget(0.45);
    for (int i = 0; i < n; ++i) rt::call<void>(slow, rt::inout<std::int64_t>(x[i]));
  }
  EXPECT_EQ(rt::sync(x[0]), 1);                // accurate
  EXPECT_EQ(rt::sync(x[n - 1]), 3 * (n - 1));  // approximate
  const rt::GroupReport g = groups->last();
  EXPECT_GE(count(g, rt::Quality::Approximate), std::size_t{n / 2});
  EXPECT_EQ(g.step, "approximate");
  EXPECT_LT(g.accurate_j, 0.45);  // by the forecasts, the accurate plan fitted
}

// An approximate OpenCL kernel is an option of the plan like a native approximation: a budget of
// 0 J runs it on the device, for every task of significance < 100.
TEST(Groups, ABindingBudgetRunsTheApproximateKernelOnTheDevice) {
#ifndef CEI_GROUP_TEST_OPENCL
  GTEST_SKIP() << "built without the OpenCL platform";
#endif
  constexpr int n = 4;
  static IVec v[n];  // off the stack, as above
  for (int i = 0; i < n; ++i) {
    v[i] = IVec(64);
    std::fill(v[i].begin(), v[i].end(), i);
  }
  const int before = [] {
    std::lock_guard l(groups->mu);
    return groups->approximated["opencl0"];
  }();
  {
    cei::EnergyBudget budget(0.0);
    for (int i = 0; i < n; ++i) rt::call<void>(shift, rt::inout<IVec>(v[i]));
  }
  for (int i = 0; i < n; ++i) {
    const IVec r = rt::sync(v[i]);
    EXPECT_EQ(r(0), i + 2) << i;
    EXPECT_EQ(r(63), i + 2) << i;
  }
  const rt::GroupReport g = groups->last();
  EXPECT_EQ(count(g, rt::Quality::Approximate), std::size_t{n});
  EXPECT_EQ(g.step, "approximate");
  std::lock_guard l(groups->mu);
  EXPECT_EQ(groups->approximated["opencl0"] - before, n);
}

TEST(Groups, ARatioKeepsThatShareAccurate) {
  std::int64_t x[kTasks];
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  {
    cei::AccuracyRatio ratio(0.75);
    for (int i = 0; i < kTasks; ++i) rt::call<void>(triple, rt::inout<std::int64_t>(x[i]));
  }
  // Equal savings: the earlier tasks give way first.
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync(x[i]), i < 2 ? 3 * i : 3 * i + 1) << i;
  const rt::GroupReport g = groups->last();
  EXPECT_EQ(count(g, rt::Quality::Accurate), 6u);
  EXPECT_EQ(count(g, rt::Quality::Approximate), 2u);
  EXPECT_EQ(g.accurate_ratio, 0.75);
}

TEST(Groups, TheEndOfTheScopeWaitsForTheGroupsTasks) {
  std::int64_t x[kTasks];
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  cei::barrier();
  const int before = settled.load();
  {
    cei::EnergyBudget budget(1e12);
    for (int i = 0; i < kTasks; ++i) rt::call<void>(triple, rt::inout<std::int64_t>(x[i]));
  }
  EXPECT_EQ(settled.load(), before + kTasks);
  cei::barrier();
}

// A host use inside the group waits for a task the group holds: the group plans what it holds
// so far there instead of waiting for ever, and plans the rest with what those spent.
TEST(Groups, AHostUseInsideTheGroupPlansWhatItHoldsSoFar) {
  std::int64_t x = 1, y = 2;
  {
    cei::EnergyBudget budget(1e12);
    rt::call<void>(triple, rt::inout<std::int64_t>(x));
    EXPECT_EQ(rt::sync(x), 4);
    rt::call<void>(triple, rt::inout<std::int64_t>(y));
  }
  EXPECT_EQ(rt::sync(y), 7);
  EXPECT_EQ(groups->last().tasks.size(), 2u);
}

TEST(Groups, NestedGroupsReportTheirOwnTasks) {
  std::int64_t x = 1, y = 2;
  {
    cei::AccuracyRatio outer(1.0);
    rt::call<void>(triple, rt::inout<std::int64_t>(x));
    {
      cei::EnergyBudget inner(0.0);
      rt::call<void>(triple, rt::inout<std::int64_t>(y));
    }
    EXPECT_EQ(groups->last().tasks.size(), 1u);
    EXPECT_EQ(count(groups->last(), rt::Quality::Approximate), 1u);
  }
  EXPECT_EQ(count(groups->last(), rt::Quality::Accurate), 1u);
  EXPECT_EQ(rt::sync(x), 4);
  EXPECT_EQ(rt::sync(y), 6);
}

}  // namespace

int main(int argc, char** argv) {
  setenv("CEI_CPU_CORES", "2", 1);
  rt::add_observer(groups);  // before the runtime starts: it reads its observers then
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
