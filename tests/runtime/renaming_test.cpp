// Renaming: write-after-read and write-after-write never serialise tasks.
#include "test_ces.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

using namespace test_ces;
namespace rt = cei::rt;

TEST(Renaming, ReadersAndWritersOfOneDatumRunConcurrently) {
  const auto threads = static_cast<int>(rt::Runtime::instance().find_platform("cpu")->workers());
  peak = 0;
  Vec x{1};
  rt::call<void>(slow_read, rt::in<Vec>(x));  // reads x for 40 ms
  for (int i = 0; i < 2 * threads - 1; ++i)   // each overwrites x: WAR then WAW
    rt::call<void>(slow_write, rt::out<Vec>(x), rt::in<std::int64_t>(i));
  EXPECT_EQ(rt::sync(x), Vec(4, 2 * threads - 2));  // the last write wins
  EXPECT_EQ(peak.load(), threads);
}

TEST(Renaming, ReadAfterWriteStillSerialises) {
  peak = 0;
  Vec y;
  auto start = std::chrono::steady_clock::now();
  // Each read waits for its write (40 ms + 40 ms); the writes themselves overlap (renamed).
  for (int i = 0; i < 3; ++i) {
    rt::call<void>(slow_write, rt::out<Vec>(y), rt::in<std::int64_t>(i));
    rt::call<void>(slow_read, rt::in<Vec>(y));
  }
  cei::barrier();
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(y, Vec(4, 2));
  EXPECT_GE(took, std::chrono::milliseconds(78));
  // Not one after the other: without renaming every write would wait for the read before it and
  // at most one slow task would ever run. (Counted, not timed: sanitizers and load stretch time.)
  if (rt::Runtime::instance().find_platform("cpu")->workers() >= 2) {
    EXPECT_GE(peak.load(), 2);
  }
}
