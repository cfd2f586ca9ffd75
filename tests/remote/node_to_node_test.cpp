// Node-to-node transfers (docs/remote.md): a value made on one node and read by tasks on another
// goes from the one to the other once, never through the program; when the node that holds it is
// gone before the fetch, the fetch's failure is reported and the value is recomputed on the host
// and sent, the results still right. Three real worker processes with tokens of their own; a
// policy pins each CE to a node.
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

namespace remote_test {
namespace {

using namespace cei::rt;
using Vec = cei::Vector<float>;

// Each CE on the platform named for it (the first candidate when that one cannot take it).
class Pinned : public Policy {
 public:
  const char* name() const override { return "pinned"; }
  void pin(const std::string& ce, const std::string& platform) {
    std::lock_guard lock(mu_);
    where_[ce] = platform;
  }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> c) override {
    std::lock_guard lock(mu_);
    for (std::size_t i = 0; i < c.size(); ++i)
      if (c[i].platform->name() == where_[ce.name]) return i;
    return 0;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::string> where_;
};

// Bytes and transfers per link ("host", or the platform), as the platforms report them; tasks
// finished per CE.
class Links : public Observer {
 public:
  struct Moved {
    std::size_t bytes = 0, count = 0;
  };
  void task_submitted(const Task&, std::span<const Dependency>, std::span<const Candidate>,
                      std::size_t, const char*) override {}
  void task_started(const Task&, const Platform&, int) override {}
  void task_finished(const Task& t, const Platform&, int, bool) override {
    {
      std::lock_guard lock(mu_);
      ++finished_[t.ce().name];
    }
    cv_.notify_all();
  }
  void transfer(const TransferEvent& e) override {
    const std::string from = !e.to_device ? e.platform->name() : e.from ? e.from->name() : "host";
    std::lock_guard lock(mu_);
    Moved& m = moved_[{from, e.to_device ? e.platform->name() : "host"}];
    m.bytes += e.bytes;
    ++m.count;
  }
  void platform_membership(const Platform& p, bool lost) override {
    {
      std::lock_guard lock(mu_);
      ++membership_[{p.name(), lost}];
    }
    cv_.notify_all();
  }
  void run_finished() override {}
  // Times the platform was lost (or admitted again) so far.
  std::size_t changes(const std::string& platform, bool lost) {
    std::lock_guard lock(mu_);
    return membership_[{platform, lost}];
  }
  bool wait_changes(const std::string& platform, bool lost, std::size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] {
      return membership_[{platform, lost}] >= n;
    });
  }
  Moved on(const std::string& from, const std::string& to) {
    std::lock_guard lock(mu_);
    return moved_[{from, to}];
  }
  std::size_t finished(const std::string& ce) {
    std::lock_guard lock(mu_);
    return finished_[ce];
  }
  // Whether n tasks of the CE finished within 20 s (observers hear of a task once its outputs
  // are published).
  bool wait_finished(const std::string& ce, std::size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return finished_[ce] >= n; });
  }
  void reset() {
    std::lock_guard lock(mu_);
    moved_.clear();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::pair<std::string, std::string>, Moved> moved_;
  std::map<std::string, std::size_t> finished_;
  std::map<std::pair<std::string, bool>, std::size_t> membership_;
};

// One runtime for the process (its platforms are read once): three nodes, checked every 300 ms
// (a frozen one is lost within 1.2 s), the pinning policy.
struct Cluster {
  WorkerProcess node1{{}, "token-one"}, node2{{}, "token-two"}, node3{{}, "token-three"};
  std::shared_ptr<Links> links = std::make_shared<Links>();
  Pinned* policy = nullptr;
  Cluster() {
    std::string remote;
    for (auto [name, node] : {std::pair{"node1", &node1}, {"node2", &node2}, {"node3", &node3}})
      remote += std::string(name) + "=" + node->url() + ",token=" + node->token() +
                ",health_ms=300,health_failures=3;";
    setenv("CEI_REMOTE", remote.c_str(), 1);
    add_observer(links);  // observers are read when the runtime starts
    auto p = std::make_unique<Pinned>();
    policy = p.get();
    Runtime::instance().set_policy(std::move(p));
  }
};

Cluster& cluster() {
  static Cluster c;
  return c;
}

Vec ramp(std::size_t n, float base) {
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = base + static_cast<float>(i % 89);
  return v;
}

// Each test's vectors are variables of its scope (Scope, as ceic writes it): a later test's
// variable at the same address is another datum, not a stale version of this one.
constexpr std::size_t kN = 300'000;         // 1.2 MB a vector
constexpr std::size_t kWire = 16 + 4 * kN;  // its framing (rank, extent) and payload

TEST(NodeToNode, AValueMadeOnANodeGoesToTheNextOnceAndNeverThroughTheProgram) {
  Cluster& c = cluster();
  c.policy->pin("scale", "node1");
  c.policy->pin("add", "node2");
  c.links->reset();
  Vec src = ramp(kN, 1), x = ramp(kN, 2), y = ramp(kN, 3), a, s1, s2;
  Scope k1(src), k2(x), k3(y), k4(a), k5(s1), k6(s2);
  assign(a, call<Vec>(ce_scale, ::cei::rt::in<Vec>(src), ::cei::rt::in<float>(3.0f)));
  // Two readers of `a` on node2 at once: one fetch.
  assign(s1, call<Vec>(ce_add, ::cei::rt::in<Vec>(a), ::cei::rt::in<Vec>(x)));
  assign(s2, call<Vec>(ce_add, ::cei::rt::in<Vec>(y), ::cei::rt::in<Vec>(a)));
  sync(s1);
  sync(s2);
  const Vec made = scale(src, 3.0f);
  EXPECT_EQ(s1, add(made, x));
  EXPECT_EQ(s2, add(y, made));
  // Before any barrier: that one brings `a` to the program, as the program asks.
  const auto peer = c.links->on("node1", "node2");
  EXPECT_EQ(peer.bytes, kWire) << "a, once, node to node";
  EXPECT_EQ(peer.count, 1u);
  EXPECT_EQ(c.links->on("host", "node2").bytes, 2 * kWire) << "x and y only: a is not sent";
  EXPECT_EQ(c.links->on("node1", "host").count, 0u) << "a never reached the program";
  EXPECT_EQ(c.links->on("node2", "host").bytes, 2 * kWire) << "s1 and s2";
  EXPECT_GE(c.links->on("host", "node1").bytes, kWire) << "src";
}

TEST(NodeToNode, AHolderGoneBeforeTheFetchIsReportedAndTheValueRecomputed) {
  Cluster& c = cluster();
  c.policy->pin("scale", "node3");
  c.policy->pin("add", "node2");
  Vec src = ramp(kN, 5), x = ramp(kN, 6), a, s;
  Scope k1(src), k2(x), k3(a), k4(s);
  const std::size_t scaled = c.links->finished("scale");
  assign(a, call<Vec>(ce_scale, ::cei::rt::in<Vec>(src), ::cei::rt::in<float>(2.0f)));
  ASSERT_TRUE(c.links->wait_finished("scale", scaled + 1));  // a is on node3 only
  c.links->reset();
  c.node3.kill9();
  testing::internal::CaptureStderr();
  assign(s, call<Vec>(ce_add, ::cei::rt::in<Vec>(a), ::cei::rt::in<Vec>(x)));
  sync(s);
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(s, add(scale(src, 2.0f), x));
  EXPECT_NE(log.find("node node2 could not fetch"), std::string::npos) << log;
  EXPECT_NE(log.find("from node node3"), std::string::npos) << log;
  EXPECT_NE(log.find(c.node3.url()), std::string::npos) << "the cause names the peer: " << log;
  EXPECT_NE(log.find("node node3 (" + c.node3.url() + ") lost"), std::string::npos)
      << "the program's own fetch finds node3 gone, and recomputes a: " << log;
  EXPECT_EQ(c.links->on("node3", "node2").count, 0u);
  EXPECT_EQ(c.links->on("host", "node2").bytes, 2 * kWire) << "a, recomputed, and x";
}

// The admission rule holds for peers: a copy node1 made before it was lost (frozen, then admitted
// again) is not trusted, so node2 does not fetch it; the value is recomputed on the host and sent.
TEST(NodeToNode, ACopyMadeBeforeItsNodeWasLostIsNotFetched) {
  Cluster& c = cluster();
  c.policy->pin("scale", "node1");
  c.policy->pin("add", "node2");
  Vec src = ramp(kN, 7), x = ramp(kN, 8), a, s;
  Scope k1(src), k2(x), k3(a), k4(s);
  const std::size_t scaled = c.links->finished("scale");
  const std::size_t lost = c.links->changes("node1", true), back = c.links->changes("node1", false);
  assign(a, call<Vec>(ce_scale, ::cei::rt::in<Vec>(src), ::cei::rt::in<float>(4.0f)));
  ASSERT_TRUE(c.links->wait_finished("scale", scaled + 1));  // a is on node1 only
  c.node1.freeze();
  ASSERT_TRUE(c.links->wait_changes("node1", true, lost + 1)) << "lost by its health checks";
  c.node1.thaw();
  ASSERT_TRUE(c.links->wait_changes("node1", false, back + 1)) << "admitted again";
  c.links->reset();
  assign(s, call<Vec>(ce_add, ::cei::rt::in<Vec>(a), ::cei::rt::in<Vec>(x)));
  sync(s);
  EXPECT_EQ(s, add(scale(src, 4.0f), x));
  EXPECT_EQ(c.links->on("node1", "node2").count, 0u) << "node1's copy is of an earlier admission";
  EXPECT_EQ(c.links->on("node1", "host").count, 0u) << "nor downloaded: recomputed on the host";
  EXPECT_EQ(c.links->on("host", "node2").bytes, 2 * kWire) << "a, recomputed, and x";
}

}  // namespace
}  // namespace remote_test
