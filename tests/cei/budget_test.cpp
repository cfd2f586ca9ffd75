// cei::EnergyBudget and cei::AccuracyRatio in a program built without the runtime (the -seq twin):
// they do nothing, and bad values end the program with status 2 naming the declaration's line.
#include <cei/cei.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace {

int work(int x) {
  return 3 * x + 1;
}

TEST(BudgetScopes, DoNothingWithoutTheRuntime) {
  ASSERT_EQ(cei::detail::group_begin_hook, nullptr);
  int x = 1;
  {
    cei::EnergyBudget budget(0.0);
    cei::AccuracyRatio ratio(0.0);
    x = work(x);
  }
  EXPECT_EQ(x, 4);
}

TEST(BudgetScopes, BadValuesExitWithStatusTwoNamingTheLine) {
  // clang-format off
  EXPECT_EXIT({ cei::EnergyBudget b(-1.0); }, ::testing::ExitedWithCode(2),
              "budget_test.cpp:[0-9]+: error: cei::EnergyBudget needs a finite number of joules");
  EXPECT_EXIT({ cei::EnergyBudget b(std::numeric_limits<double>::quiet_NaN()); },
              ::testing::ExitedWithCode(2), "EnergyBudget .*got nan");
  EXPECT_EXIT({ cei::AccuracyRatio r(1.5); }, ::testing::ExitedWithCode(2),
              "budget_test.cpp:[0-9]+: error: cei::AccuracyRatio needs a ratio between 0 and 1 \\(got 1.5\\)");
  // clang-format on
}

}  // namespace
