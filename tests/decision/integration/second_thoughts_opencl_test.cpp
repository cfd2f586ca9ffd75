// Second thoughts off a real PoCL device (competing.toml: one CPU worker beside it): the profiles
// say the device runs the CE in its measured time and the CPU in four times that, so DynPerf
// queues most of a batch on the device; then the device slows down 20x (the kernel iterates 20
// times longer than when its profile and rate were measured). The device keeps only a few
// kernels enqueued ahead (docs/opencl.md, "Kernels in flight"); the ready tasks held on the host
// behind them are taken back and placed again on the CPU, the trace and the summary say so, every
// result is the sequential program's, and no task runs twice, round after round (the withdrawals
// race the launches that completions release).
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

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;
using IVec = cei::Vector<int>;

constexpr std::size_t kSize = 256;
constexpr int kFastIters = 20000;
constexpr int kSlowdown = 20;

// The CPU's version sleeps as long as its profile says (set once the device is measured): the
// CPU runs on time, and leaves the two cores to PoCL meanwhile.
std::atomic<double> cpu_seconds{0};

void inc_sleeping(void* const* a) {
  std::this_thread::sleep_for(std::chrono::duration<double>(cpu_seconds.load()));
  IVec r = *static_cast<const IVec*>(a[0]);
  for (auto& x : r) x += 1;
  *static_cast<IVec*>(a[2]) = std::move(r);
}

// `iters` steps of a generator per element, whose state is 0 for none of the test's inputs: the
// device's time.
constexpr const char* kSource = R"CL(
__kernel void inc(__global const int* v, int iters, __global int* out) {
  size_t i = get_global_id(0);
  uint s = (uint)v[i];
  for (int k = 0; k < iters; ++k) s = s * 1664525u + 1013904223u;
  out[i] = v[i] + 1 + (s == 0u);
}
)CL";

const rt::ParamInfo params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()},
                                {"iters", rt::Dir::In, &rt::type_ops<int>()}};
const rt::NativeVersion natives[] = {{"Native", &inc_sleeping}};
const rt::OpenCLImpl inc_cl{"inc", kSource, "second_thoughts_opencl_test.cl", "par0.x", "",
                            "",    "par0.x"};
const rt::CeInfo inc_ce{"inc", "RethinkCLCEI", false, params, 2, &rt::type_ops<IVec>(), natives,
                        1,     &inc_cl};

// How many times each task began on any platform.
struct Starts final : rt::Observer {
  std::mutex mu;
  std::map<std::uint64_t, int> of;
  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task& t, const rt::Platform&, int) override {
    std::lock_guard g(mu);
    ++of[t.id()];
  }
  void task_finished(const rt::Task&, const rt::Platform&, int, bool) override {}
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
};

rt::trace::Recorder& recorder() {
  return observer<rt::trace::Recorder>();
}
const bool observers_added = (recorder(), observer<Starts>(), true);

// n independent tasks of `iters` iterations on the device; checks every result.
void batch(int n, int iters) {
  std::vector<IVec> in, out(n);
  for (int i = 0; i < n; ++i) in.push_back(iota(kSize, i));
  std::vector<std::unique_ptr<rt::Scope>> scopes;
  for (int i = 0; i < n; ++i) {
    scopes.push_back(std::make_unique<rt::Scope>(in[i]));
    scopes.push_back(std::make_unique<rt::Scope>(out[i]));
  }
  for (int i = 0; i < n; ++i)
    rt::assign(out[i], rt::call<IVec>(inc_ce, rt::in<IVec>(in[i]), rt::in<int>(iters)));
  for (int i = 0; i < n; ++i) ASSERT_EQ(rt::sync_read(out[i]), iota(kSize, i + 1)) << "task " << i;
}

// The device alone, a few tasks: its time per task (its profile) and its kernels' rate.
double measure_device() {
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.wait_for_platforms();
  EXPECT_NE(runtime.find_platform("cl"), nullptr) << "PoCL did not open";
  rt::Config cfg = rt::launch_config();
  cfg.policy.name = "only:cl";
  auto store = std::make_unique<rt::ProfileStore>();
  rt::ProfileStore* measured = store.get();
  runtime.set_policy(rt::make_policy(cfg, measured));
  runtime.set_profiles(std::move(store));
  batch(6, kFastIters);
  runtime.drain();
  return measured->predict(inc_ce, -1, "cl", kSize * sizeof(int) + sizeof(int)).seconds;
}

TEST(SecondThoughtsOpenCL, TasksHeldForASlowedDeviceArePlacedAgainAndRunOnce) {
  constexpr int kTasks = 24, kRounds = 3;
  const double device_s = measure_device();
  ASSERT_GT(device_s, 0);
  cpu_seconds = 4 * device_s;
  rt::Runtime& runtime = rt::Runtime::instance();
  std::size_t replaced = 0;
  for (int round = 0; round < kRounds; ++round) {
    // The profiles as before the slowdown, every round: what a run that did not know believes.
    auto store = std::make_unique<rt::ProfileStore>();
    const double bytes = kSize * sizeof(int) + sizeof(int);
    store->record(inc_ce, 0, "cpu", bytes, cpu_seconds.load());
    store->record(inc_ce, -1, "cl", bytes, device_s);
    runtime.set_policy(rt::make_policy(rt::launch_config(), store.get()));
    runtime.set_profiles(std::move(store));
    batch(kTasks, kFastIters * kSlowdown);
    runtime.drain();

    // The record of every round so far (the recorder keeps the whole run).
    const rt::trace::RunRecord run = recorder().snapshot();
    std::map<std::uint64_t, std::string> ran_on;
    for (const auto& t : run.tasks) ran_on[t.id] = t.platform;
    for (const auto& r : run.replacements) {
      EXPECT_EQ(r.from, "cl");
      EXPECT_EQ(r.to, "cpu");
      EXPECT_GT(r.lag, 1) << "placed again although the device ran as its profile says";
      EXPECT_EQ(ran_on[r.task], "cpu") << "task " << r.task;
    }
    const std::size_t this_round = run.replacements.size() - replaced;
    replaced = run.replacements.size();
    // Without second thoughts the device runs every task queued there; with them, the few
    // enqueued ahead when it fell behind and those the policy keeps.
    EXPECT_GE(this_round, 3u) << "round " << round;
    if (round == 0) {
      std::ostringstream trace;
      rt::trace::write_chrome_trace(run, trace);
      EXPECT_NE(trace.str().find("\"re-placed → cpu\""), std::string::npos);
      const std::string summary = rt::trace::format_summary(run);
      EXPECT_NE(summary.find("re-placed: " + std::to_string(run.replacements.size()) +
                             " queued task(s) from platforms behind their forecasts (cl → cpu: "),
                std::string::npos)
          << summary;
    }
  }
  Starts& starts = observer<Starts>();
  std::lock_guard g(starts.mu);
  EXPECT_EQ(starts.of.size(), 6u + kTasks * kRounds);
  for (const auto& [id, n] : starts.of) EXPECT_EQ(n, 1) << "task " << id << " began " << n << "x";
}

}  // namespace
}  // namespace cei::test
