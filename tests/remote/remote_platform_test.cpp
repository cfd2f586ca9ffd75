// The remote platform inside the runtime, against a real worker process: results equal local
// calls, and a node killed with SIGKILL mid-run costs time but not the result. A CEI_REMOTE that
// does not parse stops the program with status 2, as a mistake in the launch config does.
#include "node_client.hpp"
#include "prefer_remote.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <utility>

namespace remote_test {
namespace {

using namespace cei::rt;
using Vec = cei::Vector<float>;

// Which platform the runtime says finished each CE's tasks (what traces and the summary print),
// and the transfers the platforms reported.
class FinishedOn : public Observer {
 public:
  void task_submitted(const Task&, std::span<const Dependency>, std::span<const Candidate>,
                      std::size_t, const char*) override {}
  void task_started(const Task&, const Platform&, int) override {}
  void task_finished(const Task& t, const Platform& p, int, bool) override {
    std::lock_guard lock(mu_);
    by_ce_[t.ce().name].push_back(p.name());
  }
  void transfer(const TransferEvent& e) override {
    std::lock_guard lock(mu_);
    transfers_.push_back(e);
  }
  void run_finished() override {}
  std::vector<std::string> of(const std::string& ce) {
    std::lock_guard lock(mu_);
    return by_ce_[ce];
  }
  std::vector<TransferEvent> transfers() {
    std::lock_guard lock(mu_);
    return transfers_;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::vector<std::string>> by_ce_;
  std::vector<TransferEvent> transfers_;
};

Vec random_vec(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = d(g);
  return v;
}

// One node per test process: the runtime reads CEI_REMOTE once, when it starts.
std::unique_ptr<WorkerProcess> node;
std::shared_ptr<FinishedOn> finished_on;

class RemotePlatform : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (node) return;
    node = std::make_unique<WorkerProcess>();
    std::string spec =
        "node1=" + node->url() + ",token=" + node->token() + ",timeout_ms=2000,retry_ms=30000";
    setenv("CEI_REMOTE", spec.c_str(), 1);
    finished_on = std::make_shared<FinishedOn>();
    add_observer(finished_on);  // observers are read when the runtime starts
    Runtime::instance().set_policy(std::make_unique<PreferRemote>());
  }
};

TEST_F(RemotePlatform, IsAddedFromTheEnvironment) {
  auto* p = Runtime::instance().find_platform("node1");
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(p->kind(), "remote");
  EXPECT_TRUE(p->can_run(ce_scale));
}

TEST_F(RemotePlatform, TasksGiveWhatLocalCallsGive) {
  const std::size_t transfers_before = finished_on->transfers().size();
  Vec a = random_vec(100'000, 5), b = random_vec(100'000, 6);
  float k = 3.0f;
  Vec s, sum;
  assign(s, call<Vec>(ce_scale, in<Vec>(a), in<float>(k)));
  assign(sum, call<Vec>(ce_add, in<Vec>(s), in<Vec>(b)));  // s stays on the node
  sync(sum);
  EXPECT_EQ(sum, add(scale(a, k), b));
  sync(s);
  EXPECT_EQ(s, scale(a, k));
  cei::remote::NodeClient client(node->url(), node->token());
  EXPECT_EQ(client.forecast("TestCEI", "add", 1)["source"], "measured") << "add ran on the node";
  // The trace's transfers: a, k and b up to the node, each for the task that read it; sum and s
  // back to the host.
  const auto all = finished_on->transfers();
  int up = 0, down = 0;
  for (std::size_t i = transfers_before; i < all.size(); ++i) {
    const TransferEvent& e = all[i];
    EXPECT_EQ(e.platform->name(), "node1");
    EXPECT_LE(e.start, e.end);
    EXPECT_TRUE(e.version.rfind('d', 0) == 0 || e.version.rfind('r', 0) == 0) << e.version;
    if (e.to_device) {
      ++up;
      EXPECT_GT(e.task, 0u) << e.version;
    } else {
      ++down;
      EXPECT_GE(e.bytes, 100'000 * sizeof(float)) << e.version;
    }
  }
  EXPECT_EQ(up, 3);
  EXPECT_EQ(down, 2);
}

TEST_F(RemotePlatform, KillNineMidRunLosesNothing) {
  Vec a = random_vec(50'000, 7), b = random_vec(50'000, 8);
  Vec v, w;
  int n = 0;
  int ms = 1500;
  assign(v, call<Vec>(ce_scale, in<Vec>(a), in<float>(2.0f)));  // its value lives only on the node
  assign(n, call<int>(ce_nap, in<int>(ms)));                    // in flight when the node dies
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  node->kill9();
  assign(w, call<Vec>(ce_add, in<Vec>(v), in<Vec>(b)));  // runs on the host: v is recomputed
  sync(n);
  sync(w);
  sync(v);
  EXPECT_EQ(n, ms);
  EXPECT_EQ(v, scale(a, 2.0f));
  EXPECT_EQ(w, add(scale(a, 2.0f), b));
  // The nap moved off the dead node: the record names the platform that finished it. Observers
  // hear of a task after its outputs are published: the barrier waits for that too.
  cei::barrier();
  auto naps = finished_on->of("nap");
  ASSERT_EQ(naps.size(), 1u);
  EXPECT_NE(naps[0], "node1");
  EXPECT_FALSE(Runtime::instance().find_platform("node1")->can_run(ce_add))
      << "a dead node is lost for the run";
}

// Each case in a fresh process ("threadsafe" re-runs the test binary), whose runtime reads
// CEI_REMOTE when it starts.
TEST(RemoteEnvironment, AMistakeInCeiRemoteStopsTheProgramWithStatus2) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::pair<const char*, const char*> cases[] = {
      {"n=http://127.0.0.1:1,token=T,timeout_ms=abc",
       "cei: CEI_REMOTE: timeout_ms: expected a number >= 1, got 'abc'"},
      {"n=http://127.0.0.1:1,per_hour=-1", "cei: CEI_REMOTE: per_hour: expected a number >= 0"},
      {"n=http://127.0.0.1:1,tokn=T", "cei: CEI_REMOTE: unknown key 'tokn'"},
      {"n=http://127.0.0.1:1,token=T,health_ms=-1",
       "cei: CEI_REMOTE: n: health_ms: expected a whole number from 0 to 86400000, got '-1'"},
      {"n=http://127.0.0.1:1,token=T,health_failures=0",
       "cei: CEI_REMOTE: n: health_failures: expected a whole number from 1 to 86400000"},
      {"garbage", "cei: CEI_REMOTE: 'garbage' is not key=value"},
      {"n=ftp://127.0.0.1:1", "cei: CEI_REMOTE: n: "},
  };
  for (const auto& [spec, message] : cases) {
    EXPECT_EXIT(
        {
          setenv("CEI_REMOTE", spec, 1);
          Runtime::instance();
        },
        ::testing::ExitedWithCode(2), message)
        << spec;
  }
}

}  // namespace
}  // namespace remote_test
