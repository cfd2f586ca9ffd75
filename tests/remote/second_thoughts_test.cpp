// Second thoughts off a real worker node on 127.0.0.1, beside the program's one CPU worker: the
// profiles say node1 naps in a tenth of the time the CPU does, so DynPerf queues most of a batch
// on node1; but node1 has slowed down since (its naps take as long as the CPU's). The tasks still
// in node1's queue, not sent yet, are taken back and placed again on the CPU; the trace and the
// summary say so, every result is the sequential program's, and each task ran exactly once,
// round after round (withdrawals race the node loops that pop the queue).
#include "test_app.hpp"
#include "worker_process.hpp"

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

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace remote_test {
namespace {

namespace rt = cei::rt;

constexpr int kNapMs = 20;

// How many verdicts each task got, from any platform.
struct Settled final : rt::Observer {
  std::mutex mu;
  std::map<std::uint64_t, int> of;
  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task&, const rt::Platform&, int) override {}
  void task_finished(const rt::Task& t, const rt::Platform&, int, bool) override {
    std::lock_guard g(mu);
    ++of[t.id()];
  }
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
};

TEST(RemoteSecondThoughts, TasksQueuedForASlowedNodeArePlacedAgainAndRunOnce) {
  WorkerProcess node;
  setenv("CEI_REMOTE", ("node1=" + node.url() + ",token=" + node.token()).c_str(), 1);
  const std::string toml = "/tmp/cei-rethink-" + std::to_string(getpid()) + ".toml";
  std::ofstream(toml) << "[platforms.cpu]\ntype = \"cpu\"\ncores = 1\n";
  setenv("CEI_PLATFORMS", toml.c_str(), 1);
  unsetenv("CEI_POLICY");
  unsetenv("CEI_PROFILE");
  auto recorder = std::make_shared<rt::trace::Recorder>();
  auto settled = std::make_shared<Settled>();
  rt::add_observer(recorder);  // observers are read when the runtime starts
  rt::add_observer(settled);
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
    std::map<std::uint64_t, std::string> ran_on;
    for (const auto& t : run.tasks) ran_on[t.id] = t.platform;
    for (const auto& r : run.replacements) {
      EXPECT_EQ(r.from, "node1");
      EXPECT_EQ(r.to, "cpu");
      EXPECT_GT(r.lag, 1) << "placed again although node1 ran as its profile says";
      EXPECT_EQ(ran_on[r.task], "cpu") << "task " << r.task;
    }
    // Without second thoughts node1 runs every task queued there; with them, the few it began
    // when it fell behind and those the policy keeps.
    EXPECT_GE(run.replacements.size() - replaced, 3u) << "round " << round;
    replaced = run.replacements.size();
    if (round == 0) {
      std::ostringstream trace;
      rt::trace::write_chrome_trace(run, trace);
      EXPECT_NE(trace.str().find("\"re-placed → cpu\""), std::string::npos);
      const std::string summary = rt::trace::format_summary(run);
      EXPECT_NE(
          summary.find("re-placed: " + std::to_string(replaced) +
                       " queued task(s) from platforms behind their forecasts (node1 → cpu: "),
          std::string::npos)
          << summary;
    }
  }
  std::lock_guard g(settled->mu);
  EXPECT_EQ(settled->of.size(), static_cast<std::size_t>(kTasks * kRounds));
  for (const auto& [id, n] : settled->of)
    EXPECT_EQ(n, 1) << "task " << id << " settled " << n << "x";
}

}  // namespace
}  // namespace remote_test
