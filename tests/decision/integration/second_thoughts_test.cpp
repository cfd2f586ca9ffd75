// Second thoughts on the real CPU platform (one worker) and a real PoCL device (competing.toml):
// the profiles say the CPU runs the CE in 2 ms and the device in 10 ms, so DynPerf queues most of
// a batch on the CPU; then the CPU slows down to 40 ms a task. The tasks still queued there are
// taken back and placed again on the device, the trace says so, the summary counts them, and
// every result is what the sequential program computes.
#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/trace/chrome_trace.hpp>
#include <cei/rt/trace/run_record.hpp>
#include <cei/rt/trace/run_summary.hpp>

#include <gtest/gtest.h>

#include "inc_ce.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;
using IVec = cei::Vector<int>;

constexpr int kFastCalls = 2;
std::atomic<int> cpu_calls{0};
std::atomic<bool> submitted{false};

// The CPU's version: as fast as its profile for the first calls, then 20 times slower (a core
// taken by another program, a throttled package): the platform slows down mid-run. The first call
// keeps the CPU's only worker until the whole batch is placed (no clock involved), so that every
// placement is made by the profiles alone, before any run of the batch updates them.
void inc_slowing(void* const* a) {
  while (!submitted.load()) {
  }
  const bool fast = cpu_calls.fetch_add(1) < kFastCalls;
  std::this_thread::sleep_for(std::chrono::milliseconds(fast ? 2 : 40));
  inc_spinning(a, std::chrono::milliseconds(0));
}

// The device's version takes real time (milliseconds on PoCL), so that its own measurements keep
// it behind the CPU's profile and DynPerf queues most of the batch on the CPU: a generator stepped
// many times, whose state is 0 for none of the test's inputs.
constexpr const char* kSource = R"CL(
__kernel void inc(__global const int* v, __global int* out) {
  size_t i = get_global_id(0);
  uint s = (uint)v[i];
  for (int k = 0; k < 20000; ++k) s = s * 1664525u + 1013904223u;
  out[i] = v[i] + 1 + (s == 0u);
}
)CL";

const rt::ParamInfo params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()}};
const rt::NativeVersion natives[] = {{"Native", &inc_slowing}};
const rt::OpenCLImpl inc_cl{"inc", kSource, "second_thoughts_test.cl", "par0.x", "", "", "par0.x"};
const rt::CeInfo inc_ce{"inc", "RethinkCEI", false, params, 1, &rt::type_ops<IVec>(), natives,
                        1,     &inc_cl};

rt::trace::Recorder& recorder() {
  return observer<rt::trace::Recorder>();
}
const bool recorder_added = (recorder(), true);

void script_profiles(std::size_t bytes) {
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.wait_for_platforms();
  ASSERT_NE(runtime.find_platform("cl"), nullptr) << "PoCL did not open";
  auto store = std::make_unique<rt::ProfileStore>();
  store->record(inc_ce, 0, "cpu", static_cast<double>(bytes), 0.002);
  store->record(inc_ce, -1, "cl", static_cast<double>(bytes), 0.010);
  runtime.set_policy(rt::make_policy(rt::launch_config(), store.get()));
  runtime.set_profiles(std::move(store));
}

TEST(SecondThoughts, TasksQueuedOnASlowedPlatformArePlacedAgain) {
  constexpr int kTasks = 24;
  constexpr std::size_t kSize = 256;
  script_profiles(kSize * sizeof(int));
  // Checks every result: the sequential program's.
  run_independent(inc_ce, kTasks, kSize, [] { submitted.store(true); });
  rt::Runtime::instance().drain();

  const rt::trace::RunRecord run = recorder().snapshot();
  std::map<std::uint64_t, std::string> ran_on;
  for (const auto& t : run.tasks) ran_on[t.id] = t.platform;
  ASSERT_FALSE(run.replacements.empty()) << "no task was placed again";
  for (const auto& r : run.replacements) {
    EXPECT_EQ(r.from, "cpu");
    EXPECT_EQ(r.to, "cl");
    EXPECT_GT(r.lag, 1) << "placed again although the CPU ran as its profile says";
    EXPECT_EQ(ran_on[r.task], "cl") << "task " << r.task;
  }
  // Without second thoughts the CPU would have run every task queued there: far more than the
  // few it started before it fell behind and the one the policy kept.
  EXPECT_GE(run.replacements.size(), 5u);

  std::ostringstream trace;
  rt::trace::write_chrome_trace(run, trace);
  EXPECT_NE(trace.str().find("\"re-placed → cl\""), std::string::npos);
  EXPECT_NE(trace.str().find("\"second_thoughts\""), std::string::npos);
  const std::string summary = rt::trace::format_summary(run);
  EXPECT_NE(summary.find("re-placed: " + std::to_string(run.replacements.size()) +
                         " queued task(s) from platforms behind their forecasts (cpu → cl: "),
            std::string::npos)
      << summary;
}

}  // namespace
}  // namespace cei::test
