// The process's timer thread (cei/rt/timers.hpp): a timer runs once at its time or every period
// until cancelled, in order of due time, and cancel() returns only once no call of the timer runs
// (a meter or a timeout watch frees what its callback uses right after).
#include <cei/rt/timers.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace {

using cei::rt::Clock;
using cei::rt::Timers;
using std::chrono::milliseconds;

TEST(Timers, OnceRunsOnceAndInTheOrderOfTheirTimes) {
  auto& timers = Timers::shared();
  std::atomic<int> order{0};
  std::promise<int> late, early;
  const auto now = Clock::now();
  timers.at(now + milliseconds(20), [&] { late.set_value(++order); });
  timers.at(now + milliseconds(5), [&] { early.set_value(++order); });
  EXPECT_EQ(early.get_future().get(), 1);
  EXPECT_EQ(late.get_future().get(), 2);
}

TEST(Timers, EveryRunsUntilCancelledAndNeverAfter) {
  auto& timers = Timers::shared();
  std::atomic<int> ticks{0};
  std::promise<void> three;
  const auto id = timers.every(milliseconds(1), [&] {
    if (++ticks == 3) three.set_value();
  });
  three.get_future().wait();
  timers.cancel(id);
  const int at_cancel = ticks.load();
  // One thread runs every timer in due order: once a timer due ten periods later has run, a
  // periodic one still armed would have run meanwhile.
  std::promise<void> later;
  timers.at(Clock::now() + milliseconds(10), [&] { later.set_value(); });
  later.get_future().wait();
  EXPECT_EQ(ticks.load(), at_cancel);
  timers.cancel(id);  // twice: harmless
}

TEST(Timers, CancelWaitsForTheCallThatIsRunning) {
  auto& timers = Timers::shared();
  std::promise<void> inside, release;
  auto released = release.get_future().share();
  std::atomic<bool> finished{false};
  const auto id = timers.at(Clock::now(), [&, released] {
    inside.set_value();
    released.wait();
    finished = true;
  });
  inside.get_future().wait();
  std::atomic<bool> calling{false}, seen_finished{false};
  std::thread canceller([&] {
    calling = true;
    timers.cancel(id);
    seen_finished = finished.load();
  });
  while (!calling) std::this_thread::yield();
  for (int i = 0; i < 1000; ++i) std::this_thread::yield();  // let it reach cancel()
  release.set_value();
  canceller.join();
  EXPECT_TRUE(seen_finished) << "cancel() returned while the timer's call was still running";
}

}  // namespace
