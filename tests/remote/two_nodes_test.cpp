// Two worker nodes at once: node1 from CEI_REMOTE, node2 from the platform config (CEI_PLATFORMS,
// type "remote"); a policy that alternates between them spreads the tasks over both, and every
// result equals the local call's.
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>

namespace remote_test {
namespace {

using namespace cei::rt;
using Vec = cei::Vector<float>;

// Remote candidates in turn.
class Alternate : public Policy {
 public:
  const char* name() const override { return "alternate-remote"; }
  std::size_t choose(const CeInfo&, std::span<const Candidate> c) override {
    std::vector<std::size_t> remote;
    for (std::size_t i = 0; i < c.size(); ++i)
      if (std::string_view(c[i].platform->kind()) == "remote") remote.push_back(i);
    return remote.empty() ? 0 : remote[next_++ % remote.size()];
  }

 private:
  std::atomic<std::size_t> next_{0};
};

class FinishedOn : public Observer {
 public:
  void task_submitted(const Task&, std::span<const Dependency>, std::span<const Candidate>,
                      std::size_t, const char*) override {}
  void task_started(const Task&, const Platform&, int) override {}
  void task_finished(const Task&, const Platform& p, int, bool failed) override {
    std::lock_guard lock(mu);
    if (!failed) ++count[p.name()];
  }
  void transfer(const TransferEvent&) override {}
  void run_finished() override {}
  std::mutex mu;
  std::map<std::string, int> count;
};

Vec ramp(std::size_t n, float base) {
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = base + static_cast<float>(i % 97);
  return v;
}

TEST(TwoNodes, TasksSpreadOverBothAndResultsAreRight) {
  WorkerProcess node1({}, "token-one"), node2({}, "token-two");
  setenv("CEI_REMOTE", ("node1=" + node1.url() + ",token=token-one").c_str(), 1);
  std::string toml = "/tmp/cei-two-nodes-" + std::to_string(getpid()) + ".toml";
  std::ofstream(toml) << "[platforms.cpu]\ntype = \"cpu\"\n\n"
                      << "[platforms.node2]\ntype = \"remote\"\nurl = \"" << node2.url()
                      << "\"\ntoken = \"token-two\"\nprice_per_gb = 0.09\n";
  setenv("CEI_PLATFORMS", toml.c_str(), 1);
  auto finished = std::make_shared<FinishedOn>();
  add_observer(finished);  // observers are read when the runtime starts
  auto& rt = Runtime::instance();
  std::remove(toml.c_str());
  ASSERT_NE(rt.find_platform("node1"), nullptr) << "from CEI_REMOTE";
  ASSERT_NE(rt.find_platform("node2"), nullptr) << "from the platform config";
  EXPECT_STREQ(rt.find_platform("node2")->kind(), "remote");
  rt.set_policy(std::make_unique<Alternate>());

  constexpr int kTasks = 8;
  std::vector<Vec> in(kTasks), out(kTasks), sum(kTasks);
  for (int i = 0; i < kTasks; ++i) {
    in[i] = ramp(20'000, static_cast<float>(i));
    assign(out[i], call<Vec>(ce_scale, ::cei::rt::in<Vec>(in[i]), ::cei::rt::in<float>(i + 1.0f)));
    assign(sum[i], call<Vec>(ce_add, ::cei::rt::in<Vec>(out[i]), ::cei::rt::in<Vec>(in[i])));
  }
  for (int i = 0; i < kTasks; ++i) {
    sync(sum[i]);
    EXPECT_EQ(sum[i], add(scale(in[i], i + 1.0f), in[i])) << "task pair " << i;
  }
  cei::barrier();  // observers hear of a task after its outputs are published
  std::lock_guard lock(finished->mu);
  EXPECT_GT(finished->count["node1"], 0);
  EXPECT_GT(finished->count["node2"], 0);
  EXPECT_EQ(finished->count["node1"] + finished->count["node2"], 2 * kTasks);
}

}  // namespace
}  // namespace remote_test
