// The api.hpp contract, one rule per test: results, renaming, host copies only at sync,
// in-place readers, scopes, failures.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

using namespace test_ces;
namespace rt = cei::rt;

TEST(Api, ResultOfScalarsIsReturned) {
  int a = 20;
  int sum = rt::call<int>(add, rt::in<int>(a), rt::in<int>(22));
  EXPECT_EQ(sum, 42);
}

// A void CE's Pending waits for its task (ceic's form for a call inside a try block), whether
// the CE has outputs or none.
TEST(Api, VoidCallGetWaitsForItsTask) {
  static std::atomic<int> runs{0};
  static const rt::NativeVersion versions[] = {{"ops", [](void* const*) {
                                                  std::this_thread::sleep_for(
                                                      std::chrono::milliseconds(50));
                                                  ++runs;
                                                }}};
  static const rt::CeInfo slow{"slow", "TestCEI", false, nullptr, 0, nullptr, versions, 1, nullptr};
  rt::call<void>(slow).get();
  EXPECT_EQ(runs.load(), 1);
  EXPECT_NO_THROW(rt::call<void>(nothing).get());
}

TEST(Api, InoutChainOnOneDatum) {
  std::int64_t x = 5;
  for (int i = 0; i < 1000; ++i) rt::call<void>(increment, rt::inout<std::int64_t>(x));
  EXPECT_EQ(rt::sync(x), 1005);
}

TEST(Api, TasksNeverWriteTheHostObjectBeforeSync) {
  Vec a{1, 2, 3};
  Vec b{10, 10, 10};
  rt::call<void>(scale_add, rt::inout<Vec>(a), rt::in<Vec>(b), rt::in<std::int64_t>(1));
  cei::rt::Runtime::instance().drain();  // the task has run...
  EXPECT_EQ(a, (Vec{1, 2, 3}));          // ...into runtime storage, not into `a`
  EXPECT_EQ(rt::sync_read(a), (Vec{14, 17, 20}));
}

TEST(Api, ResultAssignedAndChained) {
  Vec a{1, 2, 3}, b{1, 1, 1}, c;
  rt::assign(c, rt::call<Vec>(combine, rt::in<Vec>(a), rt::in<Vec>(b)));
  // f(g(x)): a pending result feeds the next task directly.
  Vec d = rt::call<Vec>(
      combine, rt::in<Vec>(rt::call<Vec>(combine, rt::in<Vec>(c), rt::in<Vec>(b))), rt::in<Vec>(b));
  EXPECT_EQ(rt::sync(c), (Vec{1, 3, 5}));
  EXPECT_EQ(d, (Vec{1, 9, 17}));
}

TEST(Api, ScalarVariableFeedsTasksItsPendingValue) {
  int r = 0;
  rt::Scope scope(r);
  rt::assign(r, rt::call<int>(add, rt::in<int>(1), rt::in<int>(2)));
  // The task takes r's pending value, not the host's stale 0, and the host waits for nothing.
  int q = rt::call<int>(add, rt::in<int>(r), rt::in<int>(10));
  EXPECT_EQ(q, 13);
  EXPECT_EQ(r, 0);  // the host copy is brought up to date only at a sync
  EXPECT_EQ(rt::sync_read(r), 3);
}

TEST(Api, ScalarVariableNoTaskWritesIsCopiedAtTheCall) {
  // Never read in place: the program changes it right away (a loop counter) without a wait.
  std::int64_t k = 1;
  Vec a;
  rt::call<void>(slow_write, rt::out<Vec>(a), rt::in<std::int64_t>(7));
  rt::call<void>(scale_add, rt::inout<Vec>(a), rt::in<Vec>(Vec{0}), rt::in<std::int64_t>(k));
  k = 100;  // while scale_add still waits for slow_write
  EXPECT_EQ(rt::sync(a), (Vec{22, 22, 22, 22}));
}

TEST(Api, WriteAfterReadIsRenamed) {
  Vec a{1, 2, 3}, b;
  rt::call<void>(derive, rt::in<Vec>(a), rt::out<Vec>(b), rt::in<std::int64_t>(0));  // reads a
  rt::call<void>(derive, rt::in<Vec>(b), rt::out<Vec>(a), rt::in<std::int64_t>(1));  // writes a
  EXPECT_EQ(rt::sync(b), (Vec{3, 2, 1}));
  EXPECT_EQ(rt::sync(a), (Vec{1, 1, 1}));
}

TEST(Api, HostWriteWaitsForInPlaceReaders) {
  Vec a{1, 2, 3};
  peak = 0;
  auto start = std::chrono::steady_clock::now();
  rt::call<void>(slow_read, rt::in<Vec>(a));  // reads `a` in place for 40 ms
  rt::sync(a).push_back(4);                   // the program writes `a`
  auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(35));
  EXPECT_EQ(running.load(), 0);
}

TEST(Api, ScopeEndForgetsTheData) {
  for (int round = 0; round < 3; ++round) {
    std::int64_t x = 0;  // same address every round
    rt::Scope scope(x);
    rt::call<void>(increment, rt::inout<std::int64_t>(x));
    EXPECT_EQ(rt::sync(x), 1);  // not 1 + round: the previous round's data were forgotten
  }
}

TEST(Api, RootSyncCoversElements) {
  std::vector<std::int64_t> v(3, 0);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k <= i; ++k)
      rt::call<void>(increment, rt::inout<std::int64_t>(v[i], nullptr, &v));
  EXPECT_EQ(rt::sync(v), (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(Api, WaitOnAndBarrierHooks) {
  std::int64_t x = 0, y = 0;
  rt::call<void>(increment, rt::inout<std::int64_t>(x));
  ASSERT_NE(cei::detail::wait_hook, nullptr);
  cei::wait_on(x);
  EXPECT_EQ(x, 1);
  rt::call<void>(increment, rt::inout<std::int64_t>(y));
  rt::call<void>(increment, rt::inout<std::int64_t>(y));
  cei::barrier();
  EXPECT_EQ(y, 2);
  EXPECT_EQ(rt::Runtime::instance().tasks_in_flight(), 0u);
}

namespace {
std::atomic<int> successor_runs{0};
const rt::ParamInfo checked_params[] = {{"a", rt::Dir::InOut, &rt::type_ops<Vec>()}};
const rt::NativeVersion checked_versions[] = {
    {"ops", [](void* const* args) { ops::fail_if_negative(at<Vec>(args, 0)); }}};
const rt::CeInfo checked{"checked", "TestCEI",        false, checked_params, 1,
                         nullptr,   checked_versions, 1,     nullptr};
const rt::NativeVersion counted_versions[] = {{"ops", [](void* const*) { ++successor_runs; }}};
const rt::CeInfo counted{"counted", "TestCEI",        false, checked_params, 1,
                         nullptr,   counted_versions, 1,     nullptr};
}  // namespace

TEST(Failure, RethrownAtSyncAsItselfAndSuccessorsSkipped) {
  Vec a{4, -3, 2};
  rt::call<void>(checked, rt::inout<Vec>(a));  // throws: `a`'s new version fails
  rt::call<void>(counted, rt::inout<Vec>(a));  // reads the failed version: must not run
  Vec c;
  rt::assign(c, rt::call<Vec>(combine, rt::in<Vec>(a), rt::in<Vec>(a)));  // nor this one
  try {
    rt::sync(a);
    FAIL() << "expected the CE's exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("negative element"), std::string::npos);
  }
  EXPECT_THROW(rt::sync(c), std::invalid_argument);
  EXPECT_EQ(successor_runs.load(), 0);
  // Reported once: the host keeps its last value and the datum is usable again.
  EXPECT_EQ(a, (Vec{4, -3, 2}));
  EXPECT_NO_THROW(rt::sync(a));
  a = {1, 2, 3};
  rt::call<void>(scale_add, rt::inout<Vec>(a), rt::in<Vec>(Vec{0}), rt::in<std::int64_t>(0));
  EXPECT_EQ(rt::sync(a), (Vec{3, 6, 9}));
}

TEST(Failure, BarrierRethrows) {
  Vec a{-1};
  rt::call<void>(checked, rt::inout<Vec>(a));
  EXPECT_THROW(cei::barrier(), std::invalid_argument);
  EXPECT_NO_THROW(cei::barrier());
}

namespace {
const rt::ParamInfo int_in[] = {{"a", rt::Dir::In, &rt::type_ops<int>()}};
const rt::NativeVersion domain_versions[] = {
    {"ops", [](void* const*) { throw std::domain_error("d is zero"); }}};
// Throws std::domain_error, as seqfuzz's fz::checked does.
const rt::CeInfo domain{"domain",        "TestCEI", false,  int_in, 1, &rt::type_ops<int>(),
                        domain_versions, 1,         nullptr};
const rt::CeInfo domain_void{"domain_void", "TestCEI",       false, int_in, 1,
                             nullptr,       domain_versions, 1,     nullptr};

template <class F>
void expect_domain_error(F&& observe) {
  try {
    observe();
    ADD_FAILURE() << "expected the CE's std::domain_error";
  } catch (const std::domain_error& e) {
    EXPECT_STREQ(e.what(), "d is zero");
  }
}
}  // namespace

// The CE's own exception reaches the program as itself, as in the sequential program: a handler
// for its type catches it wherever the program observes the task or a task that read its output.
TEST(Failure, CeExceptionKeepsItsTypeAtEverySync) {
  expect_domain_error([] { (void)rt::call<int>(domain, rt::in<int>(1)).get(); });
  int r = 0;
  rt::assign(r, rt::call<int>(domain, rt::in<int>(1)));
  int s = 0;
  rt::assign(s, rt::call<int>(add, rt::in<int>(r), rt::in<int>(2)));  // reads r's failed value
  int t = 0;
  rt::assign(
      t, rt::call<int>(add, rt::in<int>(rt::call<int>(domain, rt::in<int>(1))), rt::in<int>(2)));
  expect_domain_error([&] { rt::sync_read(r); });
  expect_domain_error([&] { rt::sync_read(s); });  // the dependent task: the same exception
  expect_domain_error([&] { rt::sync(t); });
  expect_domain_error([] { rt::call<void>(domain_void, rt::in<int>(1)).get(); });  // no outputs
  rt::call<void>(domain_void, rt::in<int>(1));
  expect_domain_error([] { cei::barrier(); });
  EXPECT_NO_THROW(cei::barrier());  // each reported once
}

// Failures without an exception of the CE's own stay TaskErrors naming the CE.
TEST(Failure, NoPlatformIsATaskError) {
  static const rt::CeInfo nowhere{"nowhere", "TestCEI", false,  int_in, 1, &rt::type_ops<int>(),
                                  nullptr,   0,         nullptr};
  try {
    (void)rt::call<int>(nowhere, rt::in<int>(1)).get();
    ADD_FAILURE() << "expected a TaskError";
  } catch (const rt::TaskError& e) {
    EXPECT_EQ(e.ce(), "TestCEI::nowhere");
  }
}

using FailureDeathTest = ::testing::Test;

// Never observed, the CE's exception ends the program at exit as it ends the sequential one.
TEST(FailureDeathTest, UnobservedCeExceptionTerminatesAtExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        rt::call<void>(domain_void, rt::in<int>(1));
        std::exit(0);
      },
      "std::domain_error(.|\n)*d is zero");
}

TEST(Registry, FindsRegisteredCes) {
  EXPECT_EQ(rt::find_ce("TestCEI", "scale_add"), &scale_add);
  EXPECT_EQ(rt::find_ce("TestCEI", "nope"), nullptr);
}

TEST(Runtime, CpuPlatformFromEnvironment) {
  auto& r = rt::Runtime::instance();
  ASSERT_NE(r.find_platform("cpu"), nullptr);
  EXPECT_EQ(r.find_platform("cpu")->workers(), 4u);
  EXPECT_STREQ(r.platforms()[0]->kind(), "cpu");
  ASSERT_NE(r.policy(), nullptr);
}
