#include <cei/rt/decision/forecast.hpp>

#include <gtest/gtest.h>

namespace cei::rt {
namespace {

TEST(Forecast, ComposesEndEnergyAndCost) {
  PlatformConfig node = default_platform("node1", PlatformType::Remote);
  node.power = {2, 1};
  node.prices = {0.10, 3.6};  // 0.10 per GB, 3.6 per hour = 0.001 per second
  ForecastInput in{.now_s = 10,
                   .queue_s = 1,
                   .transfer_s = 0.5,
                   .bytes_moved = 2e9,
                   .exec = {4.0, Source::Regression}};
  Forecast f = compose_forecast(node, in);
  EXPECT_DOUBLE_EQ(f.end_s, 15.5);
  EXPECT_DOUBLE_EQ(f.exec_s, 4.0);
  EXPECT_DOUBLE_EQ(f.transfer_s, 0.5);
  EXPECT_EQ(f.time_source, Source::Regression);
  EXPECT_DOUBLE_EQ(f.energy_j, 8.0);
  EXPECT_EQ(f.energy_source, Source::Default);
  EXPECT_DOUBLE_EQ(f.cost, 0.2 + 0.004);
  EXPECT_EQ(f.cost_source, Source::Regression);
}

TEST(Forecast, MeasuredWattsReplaceTheModel) {
  PlatformConfig cpu = default_platform("cpu", PlatformType::Cpu);
  ForecastInput in{.exec = {2.0, Source::Measured}};
  Forecast f = compose_forecast(cpu, in, 7.5);
  EXPECT_DOUBLE_EQ(f.energy_j, 15.0);
  EXPECT_EQ(f.energy_source, Source::Measured);
  EXPECT_EQ(f.cost, 0);
  EXPECT_EQ(f.cost_source, Source::Measured);
}

TEST(Forecast, AnOutsideBoundDelaysTheEnd) {
  PlatformConfig cpu = default_platform("cpu", PlatformType::Cpu);
  ForecastInput in{.now_s = 10, .queue_s = 1, .exec = {2.0, Source::Measured}};
  in.min_end_s = 12.5;  // below now + queue + exec: no effect
  EXPECT_DOUBLE_EQ(compose_forecast(cpu, in).end_s, 13);
  in.min_end_s = 20;  // the host cores' backlog ends later
  const Forecast f = compose_forecast(cpu, in);
  EXPECT_DOUBLE_EQ(f.end_s, 20);
  EXPECT_DOUBLE_EQ(f.exec_s, 2.0);  // the energy still follows the execution alone
  EXPECT_DOUBLE_EQ(f.energy_j, cpu.power.active_w * 2.0);
}

TEST(Forecast, CostOfTransfersAndHours) {
  EXPECT_DOUBLE_EQ(cost_of({0.09, 0.5}, 1e9, 7200), 0.09 + 1.0);
  EXPECT_DOUBLE_EQ(cost_of({}, 1e12, 1e6), 0);
}

}  // namespace
}  // namespace cei::rt
