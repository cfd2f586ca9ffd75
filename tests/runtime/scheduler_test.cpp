// The scheduler's rules for a task that failed, with test platforms that fail on purpose beside
// the real CPU platform: a retry goes through the policy without the platform where it failed; a
// CE that crashed an isolated process is never run again in the program's own process; a
// platform that gives a task back (Failure::Elsewhere) has it placed again through the policy.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace test_ces;
namespace rt = cei::rt;
using rt::FailurePolicy;

namespace {

// Runs on this program's CPU platform only: counts it.
std::atomic<int> native_runs{0};
void set_seven(void* const* a) {
  ++native_runs;
  at<std::int64_t>(a, 0) = 7;
}
const rt::ParamInfo x_inout[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()}};
const rt::NativeVersion seven_versions[] = {{"ops", &set_seven}};
constexpr rt::CeInfo seven(const char* name, rt::FailureSpec f) {
  return {name, "SchedCEI", false, x_inout, 1, nullptr, seven_versions, 1, nullptr, f};
}

// A platform of the test for one CE: fails its first `fails` tasks with `how`, then sets x to 7
// itself (never through the CE's native version). Verdicts come on the caller's thread.
class Scripted final : public rt::Platform {
 public:
  Scripted(std::string name, const rt::CeInfo& ce, unsigned caps, int fails, rt::Failure how)
      : name_(std::move(name)), ce_(ce), caps_(caps), fails_(fails), how_(how) {}
  const std::string& name() const override { return name_; }
  const char* kind() const override { return "test"; }
  rt::Capabilities capabilities() const override { return {caps_}; }
  bool can_run(const rt::CeInfo& ce) const override { return &ce == &ce_; }
  rt::Forecast forecast(const rt::Task&) const override { return {.opening = opening}; }
  void submit(rt::TaskPtr t) override {
    ++received;
    if (fails_-- > 0)
      return t->fail(std::make_exception_ptr(std::runtime_error(name_ + " failed")), how_);
    auto& a = t->args()[0];
    auto* x = static_cast<std::int64_t*>(a.type->create());
    *x = 7;
    a.out->publish_host(x);
    t->finish();
  }
  std::size_t workers() const override { return 1; }
  void shutdown() override {}

  std::atomic<int> received{0};
  bool opening = false;  // forecasts say it is still opening (set before its first task)

 private:
  std::string name_;
  const rt::CeInfo& ce_;
  unsigned caps_;
  std::atomic<int> fails_;
  rt::Failure how_;
};

// Picks the first of `order` among the candidates (else the first one), and remembers the
// candidates of every choice.
class Prefer final : public rt::Policy {
 public:
  explicit Prefer(std::vector<std::string> order, bool by_forecasts = false)
      : order_(std::move(order)), by_forecasts_(by_forecasts) {}
  const char* name() const override { return "prefer"; }
  bool by_forecasts() const override { return by_forecasts_; }
  std::size_t choose(const rt::CeInfo&, std::span<const rt::Candidate> cs) override {
    std::vector<std::string> names;
    for (auto& c : cs) names.push_back(c.platform->name());
    std::lock_guard g(mu_);
    seen.push_back(names);
    for (auto& want : order_)
      for (std::size_t i = 0; i < cs.size(); ++i)
        if (cs[i].platform->name() == want) return i;
    return 0;
  }
  std::vector<std::vector<std::string>> seen;  // read once the tasks are done

 private:
  std::vector<std::string> order_;
  bool by_forecasts_;
  std::mutex mu_;
};

// A Scripted platform added to the runtime.
Scripted& install(const char* name, const rt::CeInfo& ce, unsigned caps, int fails,
                  rt::Failure how) {
  auto p = std::make_unique<Scripted>(name, ce, caps, fails, how);
  Scripted& ref = *p;
  rt::Runtime::instance().add_platform(std::move(p));
  return ref;
}

// Makes Prefer(order) the runtime's policy, with the CPU's count of runs back at 0.
Prefer& prefer(std::vector<std::string> order, bool by_forecasts = false) {
  auto p = std::make_unique<Prefer>(std::move(order), by_forecasts);
  Prefer& ref = *p;
  rt::Runtime::instance().set_policy(std::move(p));
  native_runs = 0;
  return ref;
}

// Calls ce on x = 0 and returns x afterwards (rethrows the task's failure).
std::int64_t run(const rt::CeInfo& ce) {
  std::int64_t x = 0;
  rt::call<void>(ce, rt::inout<std::int64_t>(x));
  return rt::sync(x);
}

constexpr unsigned kInProcess = rt::Capabilities::InProcess;
constexpr unsigned kIsolated = rt::Capabilities::MayBeLost;  // a node: CEs run in its processes

}  // namespace

TEST(Scheduler, ARetryGoesThroughThePolicyWithoutThePlatformThatFailed) {
  static const rt::CeInfo ce = seven("retried", {FailurePolicy::Retry, 2, -1});
  // Listed cpu, good, bad: a round robin from `bad` would go back to the CPU.
  Scripted& good = install("good", ce, kInProcess, 0, rt::Failure::Error);
  Scripted& bad = install("bad", ce, kInProcess, 100, rt::Failure::Error);
  Prefer& policy = prefer({"bad", "good"});
  EXPECT_EQ(run(ce), 7);
  // The first retry of an error may stay (transient); the second goes elsewhere, by the policy.
  EXPECT_EQ(bad.received.load(), 2);
  EXPECT_EQ(good.received.load(), 1);
  EXPECT_EQ(native_runs.load(), 0);
  using Names = std::vector<std::string>;
  EXPECT_EQ(policy.seen, (std::vector<Names>{{"cpu", "good", "bad"},  // placed by the policy,
                                             {"cpu", "good", "bad"},  // retried by it,
                                             {"cpu", "good"}}));      // then without `bad`
}

TEST(Scheduler, ACrashedCeIsRetriedOnlyOnAnotherIsolatedPlatform) {
  static const rt::CeInfo ce = seven("crashed_once", {FailurePolicy::Retry, 3, -1});
  Scripted& node1 = install("node1", ce, kIsolated, 1, rt::Failure::Crash);
  Scripted& node2 = install("node2", ce, kIsolated, 0, rt::Failure::Crash);
  // After node1, the policy would take the CPU if it were offered.
  Prefer& policy = prefer({"node1", "cpu", "node2"});
  EXPECT_EQ(run(ce), 7);
  EXPECT_EQ(native_runs.load(), 0) << "a crashed CE ran in the program's own process";
  EXPECT_EQ(node1.received.load(), 1) << "a crash is no transient error: not retried there";
  EXPECT_EQ(node2.received.load(), 1);
  EXPECT_EQ(policy.seen.size(), 1u);  // the retry had node2 alone: nothing to choose
}

TEST(Scheduler, ACeThatCrashesEveryIsolatedPlatformFailsWithoutRunningInProcess) {
  static const rt::CeInfo ce = seven("crashes_always", {FailurePolicy::Retry, 2, -1});
  Scripted& lone = install("lone", ce, kIsolated, 100, rt::Failure::Crash);
  prefer({"lone"});
  try {
    run(ce);
    FAIL() << "expected a TaskError";
  } catch (const rt::TaskError& e) {
    EXPECT_EQ(e.ce(), "SchedCEI::crashes_always");
    EXPECT_NE(std::string(e.what()).find("lone failed"), std::string::npos) << e.what();
  }
  EXPECT_EQ(native_runs.load(), 0) << "a crashed CE ran in the program's own process";
  EXPECT_EQ(lone.received.load(), 3);  // the run and its 2 retries, where it could go
  EXPECT_NO_THROW(cei::barrier());     // reported once
}

TEST(Scheduler, APlatformThatGivesATaskBackHasItPlacedAgainByThePolicy) {
  // No retries: a task given back is placed again without counting one.
  static const rt::CeInfo ce = seven("given_back", {FailurePolicy::Fail, 0, -1});
  Prefer& policy = prefer({"busy", "other"});
  Scripted& busy = install("busy", ce, kIsolated, 1, rt::Failure::Elsewhere);
  Scripted& other = install("other", ce, kIsolated, 0, rt::Failure::Elsewhere);
  EXPECT_EQ(run(ce), 7);
  // Placed again by the policy, without `busy`.
  EXPECT_EQ(policy.seen.back(), (std::vector<std::string>{"cpu", "other"}));
  EXPECT_EQ(std::pair(busy.received.load(), other.received.load()), std::pair(1, 1));  // once each
}

// A device still opening in the background would hold what it is given until it opens (NVIDIA's:
// 0.27 s): under a policy by forecasts no task goes there while an open platform can run it,
// though the policy prefers it; the user's orders (a policy not by forecasts) still may.
TEST(Scheduler, NoTaskWaitsForADeviceStillOpeningWhileAnOpenPlatformCanRunIt) {
  static const rt::CeInfo ce = seven("beside_opening", {FailurePolicy::Fail, 0, -1});
  Scripted& opening = install("opening", ce, kIsolated, 0, rt::Failure::Error);
  opening.opening = true;
  Prefer& policy = prefer({"opening"}, true);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(run(ce), 7);
  EXPECT_EQ(opening.received.load(), 0);
  EXPECT_EQ(native_runs.load(), 5);
  EXPECT_TRUE(policy.seen.empty()) << "the CPU alone was a candidate: no choice to make";
  prefer({"opening"}, false);
  EXPECT_EQ(run(ce), 7);
  EXPECT_EQ(opening.received.load(), 1);
}
