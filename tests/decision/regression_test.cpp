#include <cei/rt/decision/regression.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <vector>

namespace cei::rt {
namespace {

using Points = std::vector<std::pair<double, double>>;

TEST(Regression, LinearDataGetsLinearFit) {
  Points pts;
  for (double x : {1e3, 1e4, 1e5, 1e6}) pts.emplace_back(x, 0.002 + 3e-8 * x);
  Fit f = fit_size_model(pts);
  ASSERT_EQ(f.kind, FitKind::Linear);
  EXPECT_NEAR(f.a, 0.002, 1e-12);
  EXPECT_NEAR(f.b, 3e-8, 1e-18);
  EXPECT_NEAR(f(5e6), 0.002 + 0.15, 1e-9);
  EXPECT_LT(f.rms_rel_error, 1e-9);
}

TEST(Regression, PowerDataGetsPowerFit) {
  // n^3 work on n^2 bytes: t = 1e-9 * size^1.5
  Points pts;
  for (double x : {1e2, 1e3, 1e4, 1e5, 1e6}) pts.emplace_back(x, 1e-9 * std::pow(x, 1.5));
  Fit f = fit_size_model(pts);
  ASSERT_EQ(f.kind, FitKind::Power);
  EXPECT_NEAR(f.b, 1.5, 1e-9);
  EXPECT_NEAR(f.a, 1e-9, 1e-15);
  EXPECT_NEAR(f(4e6), 1e-9 * 8e9, 1e-6);
}

TEST(Regression, NoisyPowerStillPrefersPower) {
  Points pts;
  const double noise[] = {1.05, 0.97, 1.02, 0.96, 1.04, 0.99};
  int i = 0;
  for (double x : {1e2, 1e3, 1e4, 1e5, 1e6, 1e7}) pts.emplace_back(x, 2e-7 * x * x * noise[i++]);
  Fit f = fit_size_model(pts);
  ASSERT_EQ(f.kind, FitKind::Power);
  EXPECT_NEAR(f.b, 2.0, 0.02);
}

// Linear fits minimise relative error: a 1 ms task mispredicted by 1 ms is as wrong as a 1 s task
// mispredicted by 1 s, and plain least squares would sacrifice the small sizes to the large one.
TEST(Regression, LinearFitWeighsSmallSizesByRelativeError) {
  // t ~ 1 ms + 1 us/byte, but the one big run took twice as long. Plain least squares follows
  // that run and predicts about 0.7 ms at 1e3 bytes (-65%) and nothing at 1e2; weighting every
  // run by its relative error keeps the four small ones within 20%.
  Points pts{{1e2, 1.1e-3}, {1e3, 2e-3}, {2e3, 3e-3}, {4e3, 5e-3}, {1e6, 2.0}};
  Fit f = fit_size_model(pts);
  ASSERT_EQ(f.kind, FitKind::Linear) << f.rms_rel_error;
  for (auto [x, y] : std::span(pts).first(4)) EXPECT_NEAR(f(x) / y, 1.0, 0.2) << x;
}

TEST(Regression, OneSizeIsProportional) {
  Fit f = fit_size_model(Points{{1000, 0.5}});
  ASSERT_EQ(f.kind, FitKind::Proportional);
  EXPECT_DOUBLE_EQ(f(2000), 1.0);
}

TEST(Regression, TwoPointsPreferLinearAndNeverPredictNegative) {
  Fit f = fit_size_model(Points{{100, 1.0}, {200, 0.5}});  // shrinking: extrapolates below zero
  ASSERT_EQ(f.kind, FitKind::Linear);
  EXPECT_EQ(f(1000), 0.0);
}

TEST(Regression, EmptyIsNone) {
  Fit f = fit_size_model(Points{});
  EXPECT_EQ(f.kind, FitKind::None);
  EXPECT_EQ(f(10), 0);
  EXPECT_STREQ(to_string(FitKind::Power), "power");
}

}  // namespace
}  // namespace cei::rt
