// Failure policies (ce.hpp's FailureSpec, COMPSs onFailure style), one CE per policy that fails on
// purpose, and per-task timeouts.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include <unistd.h>

using namespace test_ces;
namespace rt = cei::rt;
using rt::FailurePolicy;

namespace {

// Appends 99, then fails while `failures_left` is positive: a retry must start again from the
// value before the failed attempt, never from its partial write.
std::atomic<int> failures_left{0};
std::atomic<int> attempts{0};
void append_then_maybe_fail(void* const* args) {
  ++attempts;
  at<Vec>(args, 0).push_back(99);
  if (failures_left.fetch_sub(1) > 0) throw std::runtime_error("flaky");
}
const rt::ParamInfo vec_inout[] = {{"a", rt::Dir::InOut, &rt::type_ops<Vec>()}};
const rt::NativeVersion flaky_versions[] = {{"ops", &append_then_maybe_fail}};

constexpr rt::CeInfo flaky_ce(const char* name, rt::FailureSpec f) {
  return {name, "FailCEI", false, vec_inout, 1, nullptr, flaky_versions, 1, nullptr, f};
}
const rt::CeInfo retry3 = flaky_ce("retry3", {FailurePolicy::Retry, 3, -1});
const rt::CeInfo cancel = flaky_ce("cancel", {FailurePolicy::CancelSuccessors, 0, -1});
const rt::CeInfo ignore = flaky_ce("ignore", {FailurePolicy::Ignore, 0, -1});
const rt::CeInfo fail = flaky_ce("fail", {FailurePolicy::Fail, 0, -1});
const rt::CeInfo by_default = flaky_ce("by_default", {});

// A CE with a result and no tracked output.
int result_or_throw(int x) {
  if (x < 0) throw std::invalid_argument("negative");
  return x * 10;
}
const rt::ParamInfo int_in[] = {{"x", rt::Dir::In, &rt::type_ops<int>()}};
const rt::NativeVersion result_versions[] = {
    {"ops", [](void* const* a) { at<int>(a, 1) = result_or_throw(at<int>(a, 0)); }}};
const rt::CeInfo ignored_result{
    "ignored_result",     "FailCEI",       false, int_in,  1,
    &rt::type_ops<int>(), result_versions, 1,     nullptr, {FailurePolicy::Ignore, 0, -1}};

// No outputs at all: only a barrier can report it.
const rt::NativeVersion check_versions[] = {
    {"ops", [](void* const* a) { (void)result_or_throw(at<int>(a, 0)); }}};
const rt::CeInfo cancel_no_outputs{"cancel_no_outputs",
                                   "FailCEI",
                                   false,
                                   int_in,
                                   1,
                                   nullptr,
                                   check_versions,
                                   1,
                                   nullptr,
                                   {FailurePolicy::CancelSuccessors, 0, -1}};

std::atomic<int> successor_runs{0};
const rt::NativeVersion counted_versions[] = {{"ops", [](void* const*) { ++successor_runs; }}};
const rt::CeInfo successor{"successor", "FailCEI",        false, vec_inout, 1,
                           nullptr,     counted_versions, 1,     nullptr};

void arm(int failures) {
  failures_left = failures;
  attempts = 0;
  successor_runs = 0;
}

}  // namespace

TEST(FailurePolicy, RetryRunsAgainFromTheOriginalValues) {
  arm(2);
  Vec a{1};
  rt::call<void>(retry3, rt::inout<Vec>(a));
  rt::call<void>(successor, rt::inout<Vec>(a));
  EXPECT_EQ(rt::sync(a), (Vec{1, 99}));
  EXPECT_EQ(attempts.load(), 3);
  EXPECT_EQ(successor_runs.load(), 1);
}

TEST(FailurePolicy, RetryGivesUpAfterItsRetries) {
  arm(100);
  Vec a{1};
  rt::call<void>(retry3, rt::inout<Vec>(a));
  try {
    rt::sync(a);
    FAIL() << "expected the CE's exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "flaky");  // the last attempt's own exception
  }
  EXPECT_EQ(attempts.load(), 4);  // the run and 3 retries
  EXPECT_EQ(a, (Vec{1}));
  EXPECT_NO_THROW(cei::barrier());  // reported once
}

TEST(FailurePolicy, CancelSkipsSuccessorsAndReportsOnlyAffectedData) {
  arm(1);
  Vec a{1}, b{2};
  rt::call<void>(cancel, rt::inout<Vec>(a));
  rt::call<void>(successor, rt::inout<Vec>(a));
  rt::call<void>(successor, rt::inout<Vec>(b));
  EXPECT_NO_THROW(rt::sync(b));  // not downstream of the failure
  try {
    rt::sync(a);
    FAIL() << "expected the CE's exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "flaky");
  }
  EXPECT_EQ(successor_runs.load(), 1);  // b's only
  EXPECT_EQ(a, (Vec{1}));
}

TEST(FailurePolicy, FailedTaskWithoutOutputsIsReportedAtTheNextBarrier) {
  rt::call<void>(cancel_no_outputs, rt::in<int>(-1));
  rt::call<void>(cancel_no_outputs, rt::in<int>(1));
  EXPECT_THROW(cei::barrier(), std::invalid_argument);
  EXPECT_NO_THROW(cei::barrier());
}

TEST(FailurePolicy, IgnoreKeepsPreviousValuesAndRunsSuccessors) {
  arm(1);
  Vec a{1, 2};
  rt::call<void>(ignore, rt::inout<Vec>(a));  // appends 99, then fails: the append is undone
  rt::call<void>(successor, rt::inout<Vec>(a));
  int r = -5;
  rt::assign(r, rt::call<int>(ignored_result, rt::in<int>(-1)));  // default value: 0
  int s = 0;
  rt::assign(s, rt::call<int>(add, rt::in<int>(rt::call<int>(ignored_result, rt::in<int>(-2))),
                              rt::in<int>(7)));
  EXPECT_NO_THROW(cei::barrier());
  EXPECT_EQ(a, (Vec{1, 2}));
  EXPECT_EQ(successor_runs.load(), 1);
  EXPECT_EQ(r, 0);
  EXPECT_EQ(s, 7);
}

TEST(FailurePolicy, FailIsThrownBySyncOnUnrelatedData) {
  arm(1);
  Vec a{1};
  std::int64_t unrelated = 5;
  rt::call<void>(fail, rt::inout<Vec>(a));
  rt::Runtime::instance().drain();
  rt::call<void>(increment, rt::inout<std::int64_t>(unrelated));
  try {
    rt::sync(unrelated);
    FAIL() << "expected the failure of FailCEI::fail";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "flaky");
  }
  EXPECT_EQ(rt::sync(unrelated), 6);              // reported once; the unrelated task ran
  EXPECT_THROW(rt::sync(a), std::runtime_error);  // a's own failure is still there
}

TEST(FailurePolicy, DefaultComesFromTheConfig) {
  auto& runtime = rt::Runtime::instance();
  const rt::FailureSpec saved = runtime.failure_defaults();
  EXPECT_EQ(saved.policy, FailurePolicy::Fail);  // launch_config()'s built-in default
  runtime.set_failure_defaults({FailurePolicy::Retry, 1, 0});
  arm(1);
  Vec a{1};
  rt::call<void>(by_default, rt::inout<Vec>(a));
  EXPECT_EQ(rt::sync(a), (Vec{1, 99}));
  EXPECT_EQ(attempts.load(), 2);
  runtime.set_failure_defaults(saved);
}

namespace {
std::atomic<int> sleepy_runs{0};
// The first run hangs (far past the timeout), the later ones are quick.
void sleepy(void* const* a) {
  if (sleepy_runs.fetch_add(1) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  at<std::int64_t>(a, 0) += 1;
}
const rt::ParamInfo int64_inout[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()}};
const rt::NativeVersion sleepy_versions[] = {{"ops", &sleepy}};
const rt::CeInfo sleepy_cancel{"sleepy_cancel",
                               "FailCEI",
                               false,
                               int64_inout,
                               1,
                               nullptr,
                               sleepy_versions,
                               1,
                               nullptr,
                               {FailurePolicy::CancelSuccessors, 0, 100}};
const rt::CeInfo sleepy_retry{
    "sleepy_retry", "FailCEI",       false, int64_inout, 1,
    nullptr,        sleepy_versions, 1,     nullptr,     {FailurePolicy::Retry, 1, 100}};
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

TEST(Timeout, ATaskPastItsTimeoutFailsWithoutWaitingForIt) {
  sleepy_runs = 0;
  std::int64_t x = 1;
  const auto t0 = std::chrono::steady_clock::now();
  rt::call<void>(sleepy_cancel, rt::inout<std::int64_t>(x));
  try {
    rt::sync(x);
    FAIL() << "expected a timeout";
  } catch (const rt::TaskError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out after 100 ms"), std::string::npos);
  }
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_EQ(x, 1);  // the late result is dropped
  std::this_thread::sleep_for(std::chrono::milliseconds(1600));
  EXPECT_EQ(rt::sync(x), 1);
}

TEST(Timeout, ATimedOutTaskIsRetried) {
  sleepy_runs = 0;
  std::int64_t x = 1;
  const auto t0 = std::chrono::steady_clock::now();
  rt::call<void>(sleepy_retry, rt::inout<std::int64_t>(x));
  EXPECT_EQ(rt::sync(x), 2);
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_EQ(sleepy_runs.load(), 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(1600));  // the late run ends: dropped
  EXPECT_EQ(rt::sync(x), 2);
}

namespace {
void exit_3(void* const*) {
  std::exit(3);
}
const rt::NativeVersion exit_versions[] = {{"ops", &exit_3}};
const rt::CeInfo exits{"exits", "TestCEI", false, nullptr, 0, nullptr, exit_versions, 1, nullptr};
}  // namespace

// A CE that calls exit(3) ends the program with status 3, as the sequential program: the drain at
// exit, on the very worker running that task, waited for it for ever.
TEST(FailurePolicy, ACeThatCallsExitEndsTheProgramWithItsStatus) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child starts afresh: the runtime's threads
  EXPECT_EXIT(
      {
        alarm(20);  // a child that hangs dies of SIGALRM: a failure, not a stuck test
        rt::call<void>(exits);
        cei::barrier();
      },
      ::testing::ExitedWithCode(3), "");
}
