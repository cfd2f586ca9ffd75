// Second thoughts off a real worker node on 127.0.0.1, beside the program's one CPU worker: the
// profiles say node1 naps in a tenth of the time the CPU does, so DynPerf queues most of a batch
// on node1; but node1 has slowed down since (its naps take as long as the CPU's). The tasks still
// in node1's queue, not sent yet, are taken back and placed again on the CPU; the trace and the
// summary say so, every result is the sequential program's, and each task ran exactly once,
// round after round (withdrawals race the node loops that pop the queue).
#include "moves.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/trace/run_record.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace remote_test {
namespace {

namespace rt = cei::rt;

constexpr int kNapMs = 20;

TEST(RemoteSecondThoughts, TasksQueuedForASlowedNodeArePlacedAgainAndRunOnce) {
  WorkerProcess node;
  setenv("CEI_REMOTE", ("node1=" + node.url() + ",token=" + node.token()).c_str(), 1);
  const std::string toml = "/tmp/cei-rethink-" + std::to_string(getpid()) + ".toml";
  std::ofstream(toml) << "[platforms.cpu]\ntype = \"cpu\"\ncores = 1\n";
  setenv("CEI_PLATFORMS", toml.c_str(), 1);
  unsetenv("CEI_POLICY");
  unsetenv("CEI_PROFILE");
  auto recorder = std::make_shared<rt::trace::Recorder>();
  // The remote platform reports no starts: each task settled once, none lost (the node loops
  // begin an attempt under the queue's lock, where withdraw takes entries out).
  auto counts = std::make_shared<cei::test::TaskCounts>();
  rt::add_observer(recorder);  // observers are read when the runtime starts
  rt::add_observer(counts);
  rt::Runtime& runtime = rt::Runtime::instance();
  std::remove(toml.c_str());
  ASSERT_NE(runtime.find_platform("node1"), nullptr);

  constexpr int kTasks = 16, kRounds = 3;
  std::size_t replaced = 0;
  for (int round = 0; round < kRounds; ++round) {
    // The profiles as before node1 slowed down, every round: what a run that did not know
    // believes. The input is one int.
    auto store = std::make_unique<rt::ProfileStore>();
    store->record(ce_nap, 0, "cpu", sizeof(int), kNapMs * 1e-3);
    store->record(ce_nap, 0, "node1", sizeof(int), kNapMs * 1e-4);
    runtime.set_policy(rt::make_policy(rt::launch_config(), store.get()));
    runtime.set_profiles(std::move(store));

    std::vector<int> naps(kTasks);
    for (int i = 0; i < kTasks; ++i)
      rt::assign(naps[i], rt::call<int>(ce_nap, rt::in<int>(kNapMs + i % 3)));
    for (int i = 0; i < kTasks; ++i) EXPECT_EQ(rt::sync_read(naps[i]), kNapMs + i % 3) << i;
    runtime.drain();

    // The record of every round so far (the recorder keeps the whole run).
    const rt::trace::RunRecord run = recorder->snapshot();
    // Without second thoughts node1 runs every task queued there; with them, the few it began
    // when it fell behind and those the policy keeps.
    EXPECT_GE(cei::test::expect_moves(run, replaced, "node1", "cpu"), 3u) << "round " << round;
    replaced = run.replacements.size();
    if (round == 0) cei::test::expect_moves_shown(run, "node1", "cpu");
  }
  std::lock_guard g(counts->mu);
  cei::test::expect_once_each(counts->settled, kTasks * kRounds);
}

}  // namespace
}  // namespace remote_test
