// Membership over a run, against a real worker process: a node frozen with SIGSTOP is found
// lost by its health checks within the documented time (health_failures + 1 periods, plus slack
// for a loaded machine), its task is placed again elsewhere, and after SIGCONT the node is
// admitted again and given new tasks; a value it held before its loss is not trusted (it is
// recomputed and sent again). Then it is killed and restarted on its port: lost, and admitted
// again as a fresh node. Every result equals the sequential program's.
#include "prefer_remote.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace remote_test {
namespace {

using namespace cei::rt;
using Vec = cei::Vector<float>;
using Clock = std::chrono::steady_clock;

constexpr int kHealthMs = 200, kHealthFailures = 3;
// The documented bound, (health_failures + 1) periods, and slack for 2 busy cores.
constexpr auto kFoundWithin =
    std::chrono::milliseconds((kHealthFailures + 1) * kHealthMs) + std::chrono::seconds(2);

// How many tasks of each CE each platform finished, and the platforms lost and admitted again,
// as the runtime reports them.
class FinishedOn : public Observer {
 public:
  void task_submitted(const Task&, std::span<const Dependency>, std::span<const Candidate>,
                      std::size_t, const char*) override {}
  void task_started(const Task&, const Platform&, int) override {}
  void task_finished(const Task& t, const Platform& p, int, bool) override {
    std::lock_guard lock(mu_);
    ++count_[std::string(t.ce().name) + "@" + p.name()];
  }
  void transfer(const TransferEvent&) override {}
  void platform_membership(const Platform& p, bool lost) override {
    std::lock_guard lock(mu_);
    changes_ += p.name() + (lost ? " lost;" : " re-admitted;");
  }
  void run_finished() override {}
  std::string changes() {
    std::lock_guard lock(mu_);
    return changes_;
  }
  int count(const std::string& ce, const std::string& platform) {
    std::lock_guard lock(mu_);
    return count_[ce + "@" + platform];
  }

 private:
  std::mutex mu_;
  std::map<std::string, int> count_;
  std::string changes_;  // what the summary and the trace count
};

// Polls `done` until it holds or `within` has passed; how long it took, or nothing at the
// deadline.
std::optional<Clock::duration> poll(const std::function<bool()>& done, Clock::duration within) {
  const auto t0 = Clock::now();
  while (!done()) {
    if (Clock::now() - t0 > within) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // a poll's step, not a sync
  }
  return Clock::now() - t0;
}

TEST(Membership, AFrozenNodeIsLostThenAdmittedAgainAfterSigcont) {
  auto owned = std::make_unique<WorkerProcess>();
  WorkerProcess& node = *owned;
  const std::string spec = "node1=" + node.url() + ",token=" + node.token() +
                           ",timeout_ms=1000,health_ms=" + std::to_string(kHealthMs) +
                           ",health_failures=" + std::to_string(kHealthFailures);
  setenv("CEI_REMOTE", spec.c_str(), 1);
  auto finished = std::make_shared<FinishedOn>();
  add_observer(finished);  // observers are read when the runtime starts
  Runtime& rt = Runtime::instance();
  rt.set_policy(std::make_unique<PreferRemote>());
  Platform* node1 = rt.find_platform("node1");
  ASSERT_NE(node1, nullptr);
  ASSERT_TRUE(node1->can_run(ce_inc));

  Vec a(20000);
  for (std::size_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<float>(i % 97);
  Scope a_scope(a);
  const Vec twice = scale(a, 2.0f);
  Vec v;  // lives only on the node
  assign(v, call<Vec>(ce_scale, in<Vec>(a), in<float>(2.0f)));
  Vec u;
  assign(u, call<Vec>(ce_add, in<Vec>(v), in<Vec>(twice)));
  ASSERT_EQ(sync_read(u), add(twice, twice));

  // Frozen with a task on it: the health checks find it, and the task goes elsewhere.
  int napped = 0;
  assign(napped, call<int>(ce_nap, in<int>(300)));
  node.freeze();
  const auto lost_after = poll([&] { return !node1->can_run(ce_inc); }, kFoundWithin);
  ASSERT_TRUE(lost_after)
      << "node1 not found lost within "
      << std::chrono::duration_cast<std::chrono::milliseconds>(kFoundWithin).count() << " ms";
  EXPECT_EQ(sync_read(napped), 300);
  EXPECT_EQ(finished->count("nap", "node1"), 0) << "the nap finished on the frozen node";
  Vec w;  // reads v, whose only copy was on the lost node: recomputed here
  assign(w, call<Vec>(ce_add, in<Vec>(v), in<Vec>(a)));
  EXPECT_EQ(sync_read(w), add(twice, a));

  // Thawed: the health checks admit it again, and it is given new tasks.
  node.thaw();
  ASSERT_TRUE(poll([&] { return node1->can_run(ce_inc); }, kFoundWithin))
      << "node1 not admitted again";
  const int incs_before = finished->count("inc", "node1");
  std::vector<int> incs(8);
  for (int i = 0; i < 8; ++i) assign(incs[i], call<int>(ce_inc, in<int>(i)));
  Vec x;  // v again: sent anew, not read from what the node held before its loss
  assign(x, call<Vec>(ce_add, in<Vec>(v), in<Vec>(twice)));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(sync_read(incs[i]), i + 1);
  EXPECT_EQ(sync_read(x), add(twice, twice));
  cei::barrier();  // observers hear of a task after its outputs are published
  EXPECT_EQ(finished->count("inc", "node1") - incs_before, 8) << "incs after re-admission";
  EXPECT_GE(finished->count("add", "node1"), 2) << "u's add, and x's after re-admission";
  EXPECT_EQ(finished->changes(), "node1 lost;node1 re-admitted;");

  // Restarted on its port (a new instance, its store empty): lost, then admitted again as a fresh
  // node; z, which lived only on the old instance, is recomputed here and sent to the new one.
  Vec z;
  assign(z, call<Vec>(ce_scale, in<Vec>(a), in<float>(3.0f)));
  cei::barrier();
  const int port = node.port();
  const std::string token = node.token();
  owned->kill9();
  ASSERT_TRUE(poll([&] { return !node1->can_run(ce_inc); }, kFoundWithin))
      << "the killed node1 not found lost";
  owned = std::make_unique<WorkerProcess>(std::vector<std::string>{}, token, port);
  ASSERT_TRUE(poll([&] { return node1->can_run(ce_inc); }, kFoundWithin))
      << "the restarted node1 not admitted again";
  const int adds_before = finished->count("add", "node1");
  Vec q;
  assign(q, call<Vec>(ce_add, in<Vec>(z), in<Vec>(a)));
  EXPECT_EQ(sync_read(q), add(scale(a, 3.0f), a));
  cei::barrier();
  EXPECT_EQ(finished->count("add", "node1") - adds_before, 1) << "q's add on the new instance";
  EXPECT_EQ(finished->changes(), "node1 lost;node1 re-admitted;node1 lost;node1 re-admitted;");
}

}  // namespace
}  // namespace remote_test
