// A CE with several native versions: each is explored, then the best profiled one is chosen, and
// every version computes the same result.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace test_ces;
namespace rt = cei::rt;

namespace {

std::atomic<int> runs[3];
template <int V>
void triple(void* const* a) {  // three ways to write x = 3x + 1; version 2 is slow
  ++runs[V];
  auto& x = at<std::int64_t>(a, 0);
  if constexpr (V == 0) x = 3 * x + 1;
  if constexpr (V == 1) x = x + x + x + 1;
  if constexpr (V == 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::int64_t y = 1;
    for (int i = 0; i < 3; ++i) y += x;
    x = y;
  }
}
const rt::ParamInfo params[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()}};
const rt::NativeVersion versions[] = {{"v0", &triple<0>}, {"v1", &triple<1>}, {"v2", &triple<2>}};
const rt::CeInfo triple_ce{"triple", "VersionsCEI", false, params, 1,
                           nullptr,  versions,      3,     nullptr};

}  // namespace

TEST(NativeVersions, EachRunsThenTheBestIsChosenAndResultsAgree) {
  constexpr int kData = 40;
  std::int64_t x[kData];
  for (int i = 0; i < kData; ++i) x[i] = i;
  for (int i = 0; i < kData; ++i) rt::call<void>(triple_ce, rt::inout<std::int64_t>(x[i]));
  cei::barrier();
  for (int i = 0; i < kData; ++i) EXPECT_EQ(x[i], 3 * i + 1);
  for (int v = 0; v < 3; ++v) EXPECT_GE(runs[v].load(), 1) << "version " << v << " never ran";
  // Every version has a profile now; the slow one is not chosen again.
  auto* profiles = rt::Runtime::instance().profiles();
  ASSERT_NE(profiles, nullptr);
  for (int v = 0; v < 3; ++v) {
    EXPECT_NE(profiles->predict(triple_ce, v, "cpu", 8).source, rt::Source::Default) << v;
  }
  const int slow_before = runs[2].load();
  for (int i = 0; i < kData; ++i) rt::call<void>(triple_ce, rt::inout<std::int64_t>(x[i]));
  cei::barrier();
  for (int i = 0; i < kData; ++i) EXPECT_EQ(x[i], 3 * (3 * i + 1) + 1);
  EXPECT_EQ(runs[2].load(), slow_before);
}

namespace {

// Two versions of x = x + n(x), the second doing the work four times over (4x slower, as a
// BLAS gemm against plain loops). Each counts its runs: the version that ran, by its own count.
std::atomic<int> fast_runs{0}, slow_runs{0};
std::int64_t work(std::int64_t x, int rounds) {
  volatile std::int64_t acc = 0;
  for (int r = 0; r < rounds; ++r)
    for (std::int64_t i = 0; i < 20000; ++i) acc = acc + ((x + i) & 1);
  return acc / rounds;
}
void step_fast(void* const* a) {
  ++fast_runs;
  auto& x = at<std::int64_t>(a, 0);
  x += work(x, 1);
}
void step_slow(void* const* a) {
  ++slow_runs;
  auto& x = at<std::int64_t>(a, 0);
  x += work(x, 4);
}
const rt::NativeVersion step_versions[] = {{"fast", &step_fast}, {"slow", &step_slow}};
const rt::CeInfo step_ce{"step",   "VersionsCEI", false, params, 1,
                         nullptr,  step_versions, 2,     nullptr};

}  // namespace

// A batch submitted at once on a first run (no profile): the versions are bound as the tasks
// start, so once the fast version is measured every task runs it. (Bound at submission, in
// turn, half of the batch ran the slow one.)
TEST(NativeVersions, ABatchOnAFirstRunRunsTheSlowerVersionAFewTimesAtMost) {
  constexpr int kTasks = 200;
  std::vector<std::int64_t> x(kTasks);
  for (int i = 0; i < kTasks; ++i) x[i] = i;
  for (int i = 0; i < kTasks; ++i) rt::call<void>(step_ce, rt::inout<std::int64_t>(x[i]));
  cei::barrier();
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(x[i], i + 10000) << i;
  EXPECT_EQ(fast_runs.load() + slow_runs.load(), kTasks);
  EXPECT_GE(slow_runs.load(), 1) << "the slower version was never tried";
  EXPECT_LE(slow_runs.load(), 4);
}
