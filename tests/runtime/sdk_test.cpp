// The platform SDK (docs/platforms.md): the input waiter on the runtime's own versions, the
// verdicts of a task context, invoke_native, and the energy figures that reach any Profiles.
#include "test_ces.hpp"
#include "version_impl.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/energy_report.hpp>
#include <cei/rt/input_waiter.hpp>
#include <cei/rt/native.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_context.hpp>
#include <cei/rt/task_error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

using namespace test_ces;
namespace rt = cei::rt;

namespace {

using I64 = std::int64_t;
const rt::TypeOps& i64() {
  return rt::type_ops<I64>();
}

// A task that only carries arguments, as forecasts and the input waiter read them.
class ArgsTask final : public rt::Task {
 public:
  explicit ArgsTask(const rt::CeInfo& ce) : ce_(ce) {}
  std::uint64_t id() const override { return 1; }
  const rt::CeInfo& ce() const override { return ce_; }
  std::vector<rt::TaskArg>& args() override { return args_; }
  const std::vector<rt::TaskArg>& args() const override { return args_; }
  void finish(std::exception_ptr) override {}
  Timing& timing() override { return timing_; }
  const Timing& timing() const override { return timing_; }
  void read(rt::VersionPtr v) { args_.push_back({rt::Dir::In, &i64(), std::move(v), nullptr}); }

 private:
  const rt::CeInfo& ce_;
  std::vector<rt::TaskArg> args_;
  Timing timing_;
};

void plus_one(void* const* a) {  // inout x: x + 1
  ++at<I64>(a, 0);
}
const rt::ParamInfo x_param[] = {{"x", rt::Dir::InOut, &rt::type_ops<I64>()}};
const rt::NativeVersion plus_one_versions[] = {{"ops", &plus_one}};
const rt::CeInfo plus_one_ce{"plus_one", "SdkCEI",          false, x_param, 1,
                             nullptr,    plus_one_versions, 1,     nullptr};

rt::VersionPtr pending(std::uint64_t datum) {
  return rt::VersionImpl::pending(i64(), datum, 1);
}
rt::VersionPtr ready(std::uint64_t datum, I64 value) {
  return rt::VersionImpl::ready(i64(), datum, 1, new I64(value), rt::VersionImpl::Storage::Owned);
}

// A value kept away from the host (as a device buffer is): to_host copies it when asked.
class HeldReplica final : public rt::Replica {
 public:
  HeldReplica(rt::Platform& owner, I64 value) : owner_(owner), value_(value) {}
  rt::Platform& owner() override { return owner_; }
  void to_host(void* dst, std::function<void(std::exception_ptr)> done) override {
    *static_cast<I64*>(dst) = value_;
    done(nullptr);
  }
  std::size_t bytes() const override { return sizeof(I64); }

 private:
  rt::Platform& owner_;
  I64 value_;
};

}  // namespace

TEST(InputWaiter, TheLastInputToArriveCallsReadyOnce) {
  ArgsTask t(plus_one_ce);
  auto a = pending(1), b = pending(2);
  t.read(a);
  t.read(ready(3, 7));
  t.read(b);
  int calls = 0;
  rt::InputWaiter w;
  EXPECT_TRUE(w.until_ready(t, [&calls, &t](rt::Task& arrived) { calls += &arrived == &t; }));
  EXPECT_EQ(calls, 0);
  a->publish_host(new I64(1));
  EXPECT_EQ(calls, 0) << "ready before the last input";
  b->fail(std::make_exception_ptr(std::runtime_error("lost")));  // a failed input arrives too
  EXPECT_EQ(calls, 1);
}

TEST(InputWaiter, NothingPendingLeavesItToTheCaller) {
  ArgsTask t(plus_one_ce);
  t.read(ready(1, 1));
  int calls = 0;
  rt::InputWaiter w;
  EXPECT_FALSE(w.until_ready(t, [&calls](rt::Task&) { ++calls; }));
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(w.fetched());
}

TEST(InputWaiter, OnHostBringsValuesHeldAwayFromTheHost) {
  rt::Platform& cpu = *rt::Runtime::instance().find_platform("cpu");
  ArgsTask t(plus_one_ce);
  auto away = pending(1);
  away->publish_replica(std::make_shared<HeldReplica>(cpu, 42));
  t.read(away);
  t.read(ready(2, 5));
  ASSERT_EQ(away->host(), nullptr);
  int calls = 0;
  rt::InputWaiter w;
  // The copy completes at once here: the caller goes on, with the value on the host.
  EXPECT_FALSE(w.until_on_host(t, [&calls](rt::Task&) { ++calls; }));
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(w.fetched());
  ASSERT_NE(away->host(), nullptr);
  EXPECT_EQ(*static_cast<I64*>(away->host()), 42);
  w.reset();
  EXPECT_FALSE(w.fetched());
}

TEST(InvokeNative, RunsTheVersionAndNamesTheCeWhenItHasNone) {
  I64 x = 1;
  void* args[] = {&x};
  rt::invoke_native(plus_one_ce, 0, args);
  EXPECT_EQ(x, 2);
  try {
    rt::invoke_native(plus_one_ce, 1, args);
    FAIL() << "version 1 does not exist";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "CE SdkCEI::plus_one has no native version 1");
  }
  const rt::CeInfo kernel_only{"k", "SdkCEI", false, x_param, 1, nullptr, nullptr, 0, nullptr};
  EXPECT_THROW(rt::invoke_native(kernel_only, 0, args), std::invalid_argument);
  EXPECT_EQ(x, 2);
}

namespace {

// No native version: only VerdictPlatform runs it.
const rt::CeInfo refused_ce{"refused", "SdkCEI", false, x_param, 1,
                            nullptr,   nullptr,  0,     nullptr, {rt::FailurePolicy::Retry, 3, -1}};

// Refuses every task at once, with the verdict's Failure.
class VerdictPlatform final : public rt::Platform {
 public:
  explicit VerdictPlatform(rt::Failure how) : how_(how) {}
  const std::string& name() const override { return name_; }
  const char* kind() const override { return "remote"; }
  // The latest one alone, when one process runs several tests.
  bool can_run(const rt::CeInfo& ce) const override { return &ce == &refused_ce && latest == this; }
  rt::Forecast forecast(const rt::Task&) const override { return {}; }
  void submit(rt::TaskPtr t) override {
    ++submitted;
    rt::TaskContext& c = rt::context(*t);
    c.fail(c.attempt(), std::make_exception_ptr(std::runtime_error("refused")), how_);
  }
  std::size_t workers() const override { return 1; }
  void shutdown() override {}

  std::atomic<int> submitted{0};
  static inline std::atomic<const VerdictPlatform*> latest{nullptr};

 private:
  std::string name_ = "verdicts";
  rt::Failure how_;
};

int attempts_under(rt::Failure how) {
  auto owned = std::make_unique<VerdictPlatform>(how);
  VerdictPlatform& p = *owned;
  VerdictPlatform::latest = &p;
  rt::Runtime::instance().add_platform(std::move(owned));
  I64 x = 1;
  rt::call<void>(refused_ce, rt::inout<I64>(x));
  EXPECT_THROW(rt::sync(x), rt::TaskError);
  EXPECT_EQ(x, 1);
  return p.submitted.load();
}

}  // namespace

TEST(TaskContext, AFailureThatWouldRepeatIsNotRetried) {
  EXPECT_EQ(attempts_under(rt::Failure::Final), 1);
}

TEST(TaskContext, AFailureIsRetriedAsThePolicySays) {
  EXPECT_EQ(attempts_under(rt::Failure::Error), 4);  // the run and 3 retries
}

namespace {

// A context never submitted: its attempt token alone, which the test opens by hand.
class TokenOnly final : public rt::TaskContext {
 public:
  TokenOnly() : rt::TaskContext(1, refused_ce, {}, {}) {}
  void open(int attempt) { open_.store(attempt, std::memory_order_release); }
};

}  // namespace

// Second thoughts (Platform::withdraw) against the platform's own start: whichever comes first
// wins, so a task never runs where it was also given back, and never runs nowhere.
TEST(TaskContext, ExactlyOneOfBeginAndWithdrawWinsARace) {
  TokenOnly t;
  std::atomic<int> go{0};
  std::atomic<int> begun{0}, withdrawn{0};
  constexpr int kAttempts = 20000;
  std::thread starter([&] {
    for (int a = 1; a <= kAttempts; ++a) {
      while (go.load(std::memory_order_acquire) != 2 * a - 1) {
      }
      begun += t.begin(a);
      go.fetch_add(1, std::memory_order_acq_rel);
    }
  });
  for (int a = 1; a <= kAttempts; ++a) {
    t.open(a);
    go.fetch_add(1, std::memory_order_acq_rel);  // odd: both may go
    withdrawn += t.withdraw();
    while (go.load(std::memory_order_acquire) != 2 * a) {
    }
    ASSERT_EQ(begun + withdrawn, a) << "attempt " << a;
  }
  starter.join();
  // Both outcomes happened: the race was run, not one side always first.
  EXPECT_GT(begun.load(), 0);
  EXPECT_GT(withdrawn.load(), 0);
}

TEST(TaskContext, AQueueEntryOfAnEarlierAttemptNeverBeginsTheNextOne) {
  TokenOnly t;
  t.open(1);
  EXPECT_TRUE(t.withdraw());
  t.open(2);  // placed again (on this platform or another)
  EXPECT_FALSE(t.begin(1));
  EXPECT_FALSE(t.withdraw() && t.begin(2));  // the second attempt is the withdrawer's
  t.open(3);
  EXPECT_TRUE(t.begin(3));
  EXPECT_FALSE(t.withdraw()) << "begun: it runs";
  EXPECT_EQ(t.attempt(), 3);
  EXPECT_FALSE(t.begin(3)) << "begun twice";
}

namespace {

// Profiles that are not the Decision Engine's ProfileStore: whatever keeps energy figures.
class EnergyProfiles final : public rt::Profiles {
 public:
  rt::Prediction predict(const rt::CeInfo&, int, const std::string&, double) const override {
    return {0.5, rt::Source::Measured};
  }
  void record(const rt::CeInfo&, int, const std::string&, double, double) override {}
  void record_energy(const std::string& platform, double seconds, double joules) override {
    recorded = platform + " " + std::to_string(seconds) + " s " + std::to_string(joules) + " J";
  }
  std::optional<double> measured_watts(const std::string& platform) const override {
    return platform == "cpu" ? std::optional(40.0) : std::nullopt;
  }
  std::string recorded;
};

}  // namespace

TEST(Profiles, MeteredEnergyReachesAnyProfilesAndTheirWattsReachForecasts) {
  auto& runtime = rt::Runtime::instance();
  auto owned = std::make_unique<EnergyProfiles>();
  EnergyProfiles& profiles = *owned;
  runtime.set_profiles(std::move(owned));
  rt::Platform& cpu = *runtime.find_platform("cpu");
  rt::task_energy_report(runtime, cpu, 1, std::chrono::seconds(2), rt::EnergySource::Rapl)(10.0);
  EXPECT_EQ(profiles.recorded, "cpu 2.000000 s 10.000000 J");

  ArgsTask t(plus_one_ce);
  t.read(ready(1, 1));
  const rt::Forecast f = cpu.forecast(t);
  EXPECT_DOUBLE_EQ(f.energy_j, 40.0 * 0.5);  // the measured watts, not the config's model
  EXPECT_EQ(f.energy_source, rt::Source::Measured);
}
