// Second thoughts off a real PoCL device (competing.toml: one CPU worker beside it): the profiles
// say the device runs the CE in its measured time and the CPU in four times that, so DynPerf
// queues most of a batch on the device; then the device slows down 20x (the kernel iterates 20
// times longer than when its profile and rate were measured). The device keeps only a few
// kernels enqueued ahead (docs/opencl.md, "Kernels in flight"); the ready tasks held on the host
// behind them are taken back and placed again on the CPU, the trace and the summary say so, every
// result is the sequential program's, and no task runs twice, round after round (the withdrawals
// race the launches that completions release).
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/trace/run_record.hpp>

#include <gtest/gtest.h>

#include "inc_ce.hpp"
#include "moves.hpp"
#include "rethink_ce.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;
using rethink::cpu_seconds;
using rethink::inc_ce;
using rethink::IVec;

constexpr std::size_t kSize = 256;
constexpr int kFastIters = 20000;
constexpr int kSlowdown = 20;

rt::trace::Recorder& recorder() {
  return observer<rt::trace::Recorder>();
}
const bool observers_added = (recorder(), observer<TaskCounts>(), true);

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
    // Without second thoughts the device runs every task queued there; with them, the few
    // enqueued ahead when it fell behind and those the policy keeps.
    EXPECT_GE(expect_moves(run, replaced, "cl", "cpu"), 3u) << "round " << round;
    replaced = run.replacements.size();
    if (round == 0) expect_moves_shown(run, "cl", "cpu");
  }
  TaskCounts& counts = observer<TaskCounts>();
  std::lock_guard g(counts.mu);
  expect_once_each(counts.started, 6u + kTasks * kRounds);
  expect_once_each(counts.settled, 6u + kTasks * kRounds);
}

}  // namespace
}  // namespace cei::test
