// The detector of second thoughts (runtime/src/second_thoughts.hpp) alone: when a platform's tasks
// count as late, when its queue is revisited, and how its forecasts are corrected. The platforms
// are identities only (SecondThoughts never calls them); the whole feature on the real CPU
// platform and PoCL is tests/decision/integration/second_thoughts_test.cpp.
#include "second_thoughts.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cei::rt {
namespace {

struct Named final : Platform {
  explicit Named(std::string n) : name_(std::move(n)) {}
  const std::string& name() const override { return name_; }
  const char* kind() const override { return "cpu"; }
  bool can_run(const CeInfo&) const override { return true; }
  Forecast forecast(const Task&) const override { return {}; }
  void submit(TaskPtr) override {}
  std::size_t workers() const override { return 1; }
  void shutdown() override {}
  std::string name_;
};

TEST(SecondThoughts, APlatformOnTimeIsNeverRevisitedNorCorrected) {
  SecondThoughts st;
  Named cpu("cpu");
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(st.ran(cpu, 0.010, 0.010, 0.012));
  EXPECT_EQ(st.lag(cpu), 1);
  std::vector<Candidate> cs{{&cpu, Forecast{.end_s = 5, .exec_s = 0.010}}};
  st.correct(cs, 4);
  EXPECT_EQ(cs[0].forecast.exec_s, 0.010);
  EXPECT_EQ(cs[0].forecast.end_s, 5);
}

TEST(SecondThoughts, TwoLateTasksInARowRevisitTheQueue) {
  SecondThoughts st;
  Named cpu("cpu");
  EXPECT_FALSE(st.ran(cpu, 0.002, 0.021, 0.040));  // late: 20x what it was placed by
  EXPECT_FALSE(st.ran(cpu, 0.002, 0.002, 0.002));  // on time: the streak starts again
  EXPECT_FALSE(st.ran(cpu, 0.002, 0.027, 0.040));
  EXPECT_TRUE(st.ran(cpu, 0.002, 0.030, 0.040));
  // The next revisit needs two more late tasks.
  EXPECT_FALSE(st.ran(cpu, 0.002, 0.032, 0.040));
  EXPECT_TRUE(st.ran(cpu, 0.002, 0.034, 0.040));
}

TEST(SecondThoughts, ShortTasksLateByLessThanAMillisecondAreNoise) {
  SecondThoughts st;
  Named cpu("cpu");
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(st.ran(cpu, 1e-5, 1e-5, 5e-4));  // 50x, 0.5 ms
  EXPECT_EQ(st.lag(cpu), 1);
}

TEST(SecondThoughts, TheThresholdIsTheFactorAndZeroTurnsItOff) {
  SecondThoughts st;
  Named cpu("cpu");
  st.set_threshold(4);
  EXPECT_FALSE(st.ran(cpu, 0.010, 0.010, 0.030));  // 3x: not late under 4
  EXPECT_FALSE(st.ran(cpu, 0.010, 0.010, 0.030));
  EXPECT_EQ(st.lag(cpu), 1);
  st.set_threshold(0);
  EXPECT_FALSE(st.enabled());
  EXPECT_FALSE(st.ran(cpu, 0.002, 0.002, 0.040));
  EXPECT_FALSE(st.ran(cpu, 0.002, 0.002, 0.040));
}

TEST(SecondThoughts, ALatePlatformsForecastsAreScaledByItsLagAgainstItsProfile) {
  SecondThoughts st;
  Named cpu("cpu"), cl("cl");
  st.ran(cpu, 0.002, 0.010, 0.040);  // 4x what its profile says now
  st.ran(cpu, 0.002, 0.020, 0.040);  // 2x
  EXPECT_DOUBLE_EQ(st.lag(cpu), 3);
  EXPECT_EQ(st.lag(cl), 1);
  std::vector<Candidate> cs{{&cpu, Forecast{.end_s = 2.5, .exec_s = 0.1, .energy_j = 2}},
                            {&cl, Forecast{.end_s = 2.5, .exec_s = 0.1, .energy_j = 2}}};
  st.correct(cs, 2);
  EXPECT_DOUBLE_EQ(cs[0].forecast.exec_s, 0.3);
  EXPECT_DOUBLE_EQ(cs[0].forecast.end_s, 3.5);   // 0.5 s from now becomes 1.5 s
  EXPECT_DOUBLE_EQ(cs[0].forecast.energy_j, 6);  // the same power over the longer run
  EXPECT_DOUBLE_EQ(cs[1].forecast.exec_s, 0.1);
  EXPECT_DOUBLE_EQ(cs[1].forecast.energy_j, 2);
  EXPECT_DOUBLE_EQ(cs[1].forecast.end_s, 2.5);
}

TEST(SecondThoughts, ALagWithinNoiseCorrectsNothing) {
  SecondThoughts st;
  Named cpu("cpu");
  st.ran(cpu, 0.002, 0.037, 0.040);  // late by its placement, but its profile already knows
  EXPECT_LT(st.lag(cpu), SecondThoughts::kCorrectFrom);
  std::vector<Candidate> cs{{&cpu, Forecast{.end_s = 3, .exec_s = 0.040}}};
  st.correct(cs, 2);
  EXPECT_EQ(cs[0].forecast.exec_s, 0.040);
  EXPECT_EQ(cs[0].forecast.end_s, 3);
}

}  // namespace
}  // namespace cei::rt
