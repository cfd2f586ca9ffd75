// Values fetched from a node to the host travel on the remote platform's fixed set of fetch
// threads: many fetches at once start no thread each; a fetch whose recomputation (the node
// killed) needs other fetches from the same set finishes; shutdown runs every fetch in flight.
// Each test needs a node of its own, killed or frozen by it: ctest runs each in a process of its
// own, whose runtime reads CEI_REMOTE when it starts.
#include "prefer_remote.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/platform.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <memory>
#include <mutex>
#include <vector>

namespace remote_test {
namespace {

using namespace cei::rt;
using Vec = cei::Vector<float>;

constexpr float kFactor = 3.0f;

std::size_t process_threads() {
  auto tasks = std::filesystem::directory_iterator("/proc/self/task");
  return static_cast<std::size_t>(std::distance(begin(tasks), end(tasks)));
}

Vec numbered(std::size_t n, float first) {
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = first + static_cast<float>(i);
  return v;
}

// Versions the test asked the host copies of, and how many have arrived.
class Fetches {
 public:
  ~Fetches() {
    for (Version* v : versions_) detail::release(v);
  }
  // Takes the caller's reference to v.
  void add(Version* v) { versions_.push_back(v); }
  // Asks for every host copy at once; returns without waiting.
  void start() {
    for (Version* v : versions_) {
      v->ensure_host([this](std::exception_ptr e) {
        std::lock_guard lock(mu_);
        if (e) ++failed_;
        ++arrived_;
        cv_.notify_all();
      });
    }
  }
  // Waits until every version is computed, without the barrier's forgetting of host variables,
  // which would delete their uploads from the node while a test freezes it.
  void wait_ready() {
    std::size_t ready = 0;
    for (Version* v : versions_) {
      v->on_ready([&] {
        std::lock_guard lock(mu_);
        ++ready;
        cv_.notify_all();
      });
    }
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return ready == versions_.size(); });
  }
  std::size_t arrived() {
    std::lock_guard lock(mu_);
    return arrived_;
  }
  void wait_all() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return arrived_ == versions_.size(); });
    EXPECT_EQ(failed_, 0u);
  }
  const Vec& value(std::size_t i) const { return *static_cast<const Vec*>(versions_[i]->host()); }
  std::size_t size() const { return versions_.size(); }

 private:
  std::vector<Version*> versions_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t arrived_ = 0, failed_ = 0;
};

std::unique_ptr<WorkerProcess> node;

class FetchThreads : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    node = std::make_unique<WorkerProcess>();
    // A frozen node is lost after 2 s without an answer.
    std::string spec = "node1=" + node->url() + ",token=" + node->token() + ",timeout_ms=2000";
    setenv("CEI_REMOTE", spec.c_str(), 1);
    Runtime::instance().set_policy(std::make_unique<PreferRemote>());
  }
  static void TearDownTestSuite() { node.reset(); }

  std::vector<Vec> inputs_;

  // `count` values 2 * (i, i+1, ...) computed on the node, none on the host yet. Their inputs
  // are variables that stay (no float argument, uploaded and deleted with its task): no delete
  // of an input from the node is in flight when a test freezes it, to hold the shutdown past the
  // request timeout.
  void doubled_on_node(Fetches& f, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
      inputs_.push_back(numbered(1000, static_cast<float>(i)));
    for (std::size_t i = 0; i < count; ++i)
      f.add(call<Vec>(ce_add, in<Vec>(inputs_[i]), in<Vec>(inputs_[i])).release());
    f.wait_ready();
  }
  void expect_doubled(const Fetches& f) const {
    for (std::size_t i = 0; i < f.size(); ++i)
      EXPECT_EQ(f.value(i), add(inputs_[i], inputs_[i])) << i;
  }
};

TEST_F(FetchThreads, ManyValuesFetchedAtOnceStartNoThreadEach) {
  constexpr std::size_t kValues = 32;
  Fetches f;
  doubled_on_node(f, kValues);
  // Frozen, the node holds every fetch in flight until it is lost (and the values recomputed).
  node->freeze();
  const std::size_t before = process_threads();
  f.start();
  const std::size_t during = process_threads();
  EXPECT_LT(during, before + kValues / 2) << "a thread per fetch";
  f.wait_all();
  expect_doubled(f);
}

TEST_F(FetchThreads, RecomputationsThatNeedFetchesFromTheSameNodeFinish) {
  // More chains than fetch threads (at most 8): asked for at once, every chain's end needs its
  // predecessor fetched, and that one its own, from the node that is gone.
  constexpr std::size_t kChains = 12, kDepth = 4;
  Fetches f;
  for (std::size_t c = 0; c < kChains; ++c) {
    Version* x =
        call<Vec>(ce_scale, in<Vec>(numbered(1000, static_cast<float>(c))), in<float>(1.0f))
            .release();
    for (std::size_t d = 1; d < kDepth; ++d)  // the runtime takes x's reference
      x = call<Vec>(ce_scale, in<Vec>(Pending<Vec>(x)), in<float>(kFactor)).release();
    f.add(x);
  }
  cei::barrier();
  node->kill9();
  f.start();
  f.wait_all();
  for (std::size_t c = 0; c < kChains; ++c) {
    Vec expected = numbered(1000, static_cast<float>(c));
    for (std::size_t d = 1; d < kDepth; ++d) expected = scale(expected, kFactor);
    EXPECT_EQ(f.value(c), expected) << c;
  }
}

TEST_F(FetchThreads, ShutdownRunsEveryFetchInFlight) {
  constexpr std::size_t kValues = 16;
  Fetches f;
  doubled_on_node(f, kValues);
  node->freeze();
  f.start();
  Platform* p = Runtime::instance().find_platform("node1");
  ASSERT_NE(p, nullptr);
  p->shutdown();
  EXPECT_EQ(f.arrived(), kValues) << "a fetch outlived its platform's shutdown";
  f.wait_all();
  expect_doubled(f);
}

}  // namespace
}  // namespace remote_test
