// A CE that crashes the worker process of a node, under on_failure(policy = "retry"), in a program
// whose own CPU platform could run it too: the retries go to the other node, never to the
// program's process (where the same crash would end the program), and the program gets a
// TaskError naming the CE, the node and the signal. Real worker processes on 127.0.0.1.
#include "hostile_app.hpp"
#include "prefer_remote.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace remote_test {
namespace {

using namespace cei::rt;

// The platform each placement of a task chose, retries included.
class PlacedOn : public Observer {
 public:
  void task_submitted(const Task&, std::span<const Dependency>, std::span<const Candidate> cs,
                      std::size_t chosen, const char*) override {
    std::lock_guard lock(mu);
    names.push_back(cs[chosen].platform->name());
  }
  void task_started(const Task&, const Platform&, int) override {}
  void task_finished(const Task&, const Platform&, int, bool) override {}
  void transfer(const TransferEvent&) override {}
  void run_finished() override {}
  std::mutex mu;
  std::vector<std::string> names;
};

const CeInfo& hostile(const std::string& name) {
  for (const CeInfo* ce : hostile_ces())
    if (ce->name == name) return *ce;
  throw std::logic_error("no CE " + name);
}

TEST(RemoteCrash, ACrashedCeIsRetriedOnTheOtherNodeNeverInTheProgram) {
  WorkerProcess node1({}, "t1"), node2({}, "t2");
  setenv("CEI_REMOTE",
         ("node1=" + node1.url() + ",token=t1;node2=" + node2.url() + ",token=t2").c_str(), 1);
  auto placed = std::make_shared<PlacedOn>();
  add_observer(placed);  // observers are read when the runtime starts
  auto& rt = Runtime::instance();
  ASSERT_NE(rt.find_platform("node1"), nullptr);
  ASSERT_NE(rt.find_platform("node2"), nullptr);
  rt.set_policy(std::make_unique<PreferRemote>());
  // What on_failure(policy = "retry", retries = 3) says, for a CE without the attribute. (Before,
  // the first retry stayed on node1 and later ones went round all platforms, the CPU among them.)
  rt.set_failure_defaults({FailurePolicy::Retry, 3, 0});

  int x = 3;
  Pending<int> r = call<int>(hostile("segv"), in<int>(x));
  try {
    (void)std::move(r).get();
    FAIL() << "expected a TaskError";
  } catch (const TaskError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.ce(), "HostileCEI::segv");
    EXPECT_NE(what.find("node node"), std::string::npos) << what;  // node1 or node2: the last
    EXPECT_NE(what.find("was killed by signal"), std::string::npos) << what;
  }
  std::lock_guard lock(placed->mu);
  EXPECT_EQ(placed->names, (std::vector<std::string>{"node1", "node2", "node1", "node2"}));
  // Both nodes serve on: their worker processes died, not they.
  EXPECT_EQ(node1.terminate(), 0);
  EXPECT_EQ(node2.terminate(), 0);
}

}  // namespace
}  // namespace remote_test
