#include "scripted.hpp"

#include <cei/rt/decision/policies.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace cei::rt::test {
namespace {

// The policy a Fallbacks wrapper (make_policy, with the embedded default) stands in front of.
Policy& unwrapped(Policy& p) {
  auto* f = dynamic_cast<Fallbacks*>(&p);
  return f ? f->inner() : p;
}

struct Fixture : ::testing::Test {
  NamedPlatform cpu{"cpu"}, gpu{"opencl0", "opencl"}, node{"node1", "remote"};
};

TEST_F(Fixture, DynPerfPicksEarliestEndAndFirstOnTies) {
  DynPerf p;
  std::vector<Candidate> cs{{&cpu, fc(3, 1)}, {&gpu, fc(2, 100)}, {&node, fc(2.5, 0)}};
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
  cs[2].forecast.end_s = 2;  // a tie with the GPU: the lower index wins
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
  cs[0].forecast.end_s = 1.999;
  EXPECT_EQ(p.choose(kMultiply, cs), 0u);
}

TEST_F(Fixture, DynPerfSkipsInfeasible) {
  DynPerf p;
  std::vector<Candidate> cs{{&cpu, fc(1, 1)}, {&gpu, fc(2, 1)}};
  cs[0].forecast.feasible = false;
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
}

// rate 5 J/s: the GPU ends at 1 s with 10 J, the CPU at 2 s. One second later is worth it
// exactly when the CPU saves at least 5 J.
TEST_F(Fixture, DynEnAcceptsDelayExactlyAtTheRate) {
  DynEn p(5);
  std::vector<Candidate> cs{{&gpu, fc(1, 10)}, {&cpu, fc(2, 5)}};  // saves 5 J: boundary
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
}

TEST_F(Fixture, DynEnRefusesDelayJustBelowTheRate) {
  DynEn p(5);
  std::vector<Candidate> cs{{&gpu, fc(1, 10)}, {&cpu, fc(2, 5.01)}};  // saves 4.99 J
  EXPECT_EQ(p.choose(kMultiply, cs), 0u);
}

TEST_F(Fixture, DynEnAcceptsDelayJustAboveTheRate) {
  DynEn p(5);
  std::vector<Candidate> cs{{&gpu, fc(1, 10)}, {&cpu, fc(2, 4.99)}};  // saves 5.01 J
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
}

// The paper's figures: 5 mJ per ms is 5 J per s, at millisecond scale.
TEST_F(Fixture, DynEnBoundaryInMilliseconds) {
  DynEn p(5);
  std::vector<Candidate> at{{&gpu, fc(0.010, 0.060)}, {&cpu, fc(0.012, 0.050)}};  // 10 mJ / 2 ms
  EXPECT_EQ(p.choose(kMultiply, at), 1u);
  std::vector<Candidate> below{{&gpu, fc(0.010, 0.060)}, {&cpu, fc(0.012, 0.0501)}};
  EXPECT_EQ(p.choose(kMultiply, below), 0u);
}

// Forecasts are absolute (seconds since the runtime started): an hour into the run the same
// 2 ms / 10 mJ trade sits at the boundary, although 3600.012 - 3600.010 is not exactly 0.002.
TEST_F(Fixture, DynEnBoundaryHoldsLateInTheRun) {
  DynEn p(5);
  std::vector<Candidate> at{{&gpu, fc(3600.010, 0.060)}, {&cpu, fc(3600.012, 0.050)}};
  EXPECT_EQ(p.choose(kMultiply, at), 1u);
  std::vector<Candidate> below{{&gpu, fc(3600.010, 0.060)}, {&cpu, fc(3600.012, 0.0501)}};
  EXPECT_EQ(p.choose(kMultiply, below), 0u);
}

TEST_F(Fixture, DynEnRateZeroIsLowestEnergyAndHugeRateIsDynPerf) {
  std::vector<Candidate> cs{{&gpu, fc(1, 10)}, {&cpu, fc(9, 9)}, {&node, fc(4, 20)}};
  EXPECT_EQ(DynEn(0).choose(kMultiply, cs), 1u);
  EXPECT_EQ(DynEn(1e9).choose(kMultiply, cs), 0u);
  // rate 0.2: scores 10.2, 10.8, 20.8
  EXPECT_EQ(DynEn(0.2).choose(kMultiply, cs), 0u);
  // rate 0.1: scores 10.1, 9.9, 20.4
  EXPECT_EQ(DynEn(0.1).choose(kMultiply, cs), 1u);
}

TEST_F(Fixture, DynEnNeverPicksLaterAndCostlier) {
  DynEn p(5);
  std::vector<Candidate> cs{{&cpu, fc(3, 30)}, {&gpu, fc(1, 10)}};
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
}

TEST_F(Fixture, StaticFollowsTheMapAndFallsBackToEarliestEnd) {
  StaticMap p({{"MatmulCEI.multiply", "cpu"}, {"multiply", "node1"}, {"sort", "node1"}});
  std::vector<Candidate> cs{{&gpu, fc(1, 1)}, {&cpu, fc(5, 5)}, {&node, fc(9, 9)}};
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);  // the qualified key wins over the bare one
  EXPECT_EQ(p.choose(kSort, cs), 2u);
  std::vector<Candidate> no_node{{&cpu, fc(5, 5)}, {&gpu, fc(1, 1)}};
  EXPECT_EQ(p.choose(kSort, no_node), 1u);  // mapped platform cannot run it: earliest end
  StaticMap empty({});
  EXPECT_EQ(empty.choose(kSort, cs), 0u);
}

TEST_F(Fixture, OnlyPlatformTakesEverythingItCanRun) {
  OnlyPlatform p("node1");
  EXPECT_STREQ(p.name(), "only:node1");
  std::vector<Candidate> cs{{&gpu, fc(1, 1)}, {&node, fc(100, 100)}};
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
  std::vector<Candidate> without{{&cpu, fc(3, 1)}, {&gpu, fc(1, 1)}};
  EXPECT_EQ(p.choose(kMultiply, without), 1u);
}

TEST_F(Fixture, BudgetIsEarliestEndWithinBudgetElseCheapest) {
  Budget p(0.10);
  std::vector<Candidate> cs{{&node, fc(1, 0, 0.50)}, {&gpu, fc(3, 0, 0.10)}, {&cpu, fc(4, 0, 0)}};
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);  // 0.10 is within a 0.10 budget
  Budget tight(0.01);
  EXPECT_EQ(tight.choose(kMultiply, cs), 2u);
  std::vector<Candidate> over{{&node, fc(1, 0, 0.50)}, {&gpu, fc(3, 0, 0.20)}};
  EXPECT_EQ(tight.choose(kMultiply, over), 1u);  // nothing within: the cheapest
}

TEST_F(Fixture, CheapestWithinSlackOfTheEarliestEnd) {
  Cheapest p(2.0);
  std::vector<Candidate> cs{{&node, fc(1, 0, 0.5)}, {&gpu, fc(3, 0, 0.2)}, {&cpu, fc(3.5, 0, 0)}};
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);  // cpu ends 2.5 s after the first: too late
  EXPECT_EQ(Cheapest(2.5).choose(kMultiply, cs), 2u);
  EXPECT_EQ(Cheapest(0).choose(kMultiply, cs), 0u);
}

TEST_F(Fixture, ExploringSendsUnprofiledPlatformsTheirBoundedRuns) {
  ProfileStore profiles({.explore_runs = 2});
  Exploring p(std::make_unique<DynPerf>(), profiles);
  EXPECT_STREQ(p.name(), "dynperf");
  std::vector<Candidate> cs{{&cpu, fc(1, 1)}, {&gpu, fc(5, 1)}};
  cs[0].forecast.time_source = Source::Measured;
  cs[1].forecast.time_source = Source::Default;  // never ran here: its 5 s is a guess
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
  EXPECT_EQ(p.choose(kMultiply, cs), 1u);
  EXPECT_EQ(p.choose(kMultiply, cs), 0u);  // two runs granted, now dynperf decides
  // The claims were for the OpenCL implementation (-1) on opencl0.
  EXPECT_FALSE(profiles.claim_exploration(kMultiply, -1, "opencl0"));
  EXPECT_TRUE(profiles.claim_exploration(kMultiply, 0, "opencl0"));
  // Measured or regressed forecasts are never explored.
  ProfileStore fresh({.explore_runs = 2});
  Exploring q(std::make_unique<DynPerf>(), fresh);
  cs[1].forecast.time_source = Source::Regression;
  EXPECT_EQ(q.choose(kMultiply, cs), 0u);
}

// The embedded default (cpu + every OpenCL device found): PoCL, an OpenCL CPU device, computes on
// the cores the cpu platform uses; a GPU does not. The automatic policies give PoCL only the tasks
// no other platform can run, however fast its forecast and although it was never explored.
struct DefaultPlatforms : ::testing::Test {
  NamedPlatform cpu{"cpu"}, pocl{"opencl0", "opencl"}, gpu{"opencl1", "opencl"},
      node{"node1", "remote"};
  HostCores cores{2};
  DefaultPlatforms() {
    cores.join(
        &cpu, [](const Task&) { return 0.0; }, 2);
    cores.join(
        &pocl, [](const Task&) { return 0.0; }, 2);
  }
  // The CPU busy for 10 s, PoCL free and never run (a Default forecast: explored at once).
  std::vector<Candidate> cpu_then_pocl() {
    std::vector<Candidate> cs{{&cpu, fc(10, 1)}, {&pocl, fc(1, 1)}};
    cs[0].forecast.time_source = Source::Measured;
    cs[1].forecast.time_source = Source::Default;
    return cs;
  }
};

TEST_F(DefaultPlatforms, AutomaticPoliciesLeaveAHostCoresDeviceToWhatOnlyItCanRun) {
  Config cfg = default_config();
  for (const char* name : {"dynperf", "dynen", "budget", "cheapest"}) {
    SCOPED_TRACE(name);
    cfg.policy.name = name;
    ProfileStore profiles({.explore_runs = 1});
    auto p = make_policy(cfg, &profiles, cores);
    EXPECT_STREQ(p->name(), name);
    const auto cs = cpu_then_pocl();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(p->choose(kSort, cs), 0u) << "call " << i;
    // A device with its own hardware is no fallback: it takes the task as before.
    std::vector<Candidate> three{cs[0], cs[1], {&gpu, fc(2, 1)}};
    three[2].forecast.time_source = Source::Measured;
    EXPECT_EQ(p->choose(kSort, three), 2u);
    // A CE with no native version: PoCL is what can run it.
    std::vector<Candidate> only_pocl{cs[1]};
    EXPECT_EQ(p->choose(kSort, only_pocl), 0u);
    // Nor when the others cannot take it.
    std::vector<Candidate> node_infeasible{{&node, fc(0.5, 0)}, cs[1]};
    node_infeasible[0].forecast.feasible = false;
    EXPECT_EQ(p->choose(kSort, node_infeasible), 1u);
  }
  // The user's orders stand: only:opencl0 and a static map send the task there.
  cfg.policy.name = "only:opencl0";
  EXPECT_EQ(make_policy(cfg, nullptr, cores)->choose(kSort, cpu_then_pocl()), 1u);
  cfg.policy.name = "static";
  cfg.policy.static_map["sort"] = "opencl0";
  EXPECT_EQ(make_policy(cfg, nullptr, cores)->choose(kSort, cpu_then_pocl()), 1u);
}

TEST_F(DefaultPlatforms, AListedDeviceIsACandidateLikeAnyOther) {
  const auto cs = cpu_then_pocl();
  Config listed = parse_config(
      "[platforms.cpu]\ntype = \"cpu\"\n[platforms.opencl0]\ntype = \"opencl\"\n", "listed.toml");
  for (const char* name : {"dynperf", "dynen"}) {
    SCOPED_TRACE(name);
    listed.policy.name = name;
    ProfileStore profiles({.explore_runs = 1});
    EXPECT_EQ(make_policy(listed, &profiles, cores)->choose(kSort, cs), 1u) << "explored";
    EXPECT_EQ(make_policy(listed, nullptr, cores)->choose(kSort, cs), 1u) << "earliest end";
  }
  // ... unless the file says it is a fallback.
  Config fallback = parse_config(
      "[platforms.cpu]\ntype = \"cpu\"\n[platforms.opencl0]\ntype = \"opencl\"\n"
      "fallback = true\n",
      "fallback.toml");
  ProfileStore profiles({.explore_runs = 1});
  EXPECT_EQ(make_policy(fallback, &profiles, cores)->choose(kSort, cs), 0u);
  // Any platform can be one: here the CPU, beside a device with its own hardware.
  Config cpu_last = parse_config(
      "[platforms.cpu]\ntype = \"cpu\"\nfallback = true\n[platforms.opencl1]\ntype = "
      "\"opencl\"\n",
      "cpu_last.toml");
  std::vector<Candidate> gpu_later{{&cpu, fc(1, 1)}, {&gpu, fc(5, 1)}};
  EXPECT_EQ(make_policy(cpu_last, nullptr, cores)->choose(kSort, gpu_later), 1u);
  EXPECT_EQ(make_policy(listed, nullptr, cores)->choose(kSort, gpu_later), 0u);
}

TEST(MakePolicy, ExploresOnlyForForecastDrivenPolicies) {
  ProfileStore profiles({.explore_runs = 1});
  NamedPlatform cpu{"cpu"}, gpu{"opencl0", "opencl"};
  std::vector<Candidate> cs{{&cpu, fc(1, 1)}, {&gpu, fc(5, 1)}};
  cs[0].forecast.time_source = Source::Measured;
  Config cfg = default_config();
  cfg.policy.name = "only:cpu";
  EXPECT_EQ(make_policy(cfg, &profiles)->choose(kSort, cs), 0u);
  cfg.policy.name = "dynperf";
  EXPECT_EQ(make_policy(cfg, &profiles)->choose(kSort, cs), 1u);
  cfg.profile.explore_runs = 0;
  ProfileStore more({.explore_runs = 1});
  EXPECT_EQ(make_policy(cfg, &more)->choose(kSort, cs), 0u);
}

TEST(MakePolicy, ReadsTheConfigsPolicy) {
  Config cfg = default_config();
  EXPECT_STREQ(make_policy(cfg)->name(), "dynperf");
  cfg.policy.name = "dynen";
  cfg.policy.j_per_s = 7;
  auto p = make_policy(cfg);
  ASSERT_STREQ(p->name(), "dynen");
  EXPECT_EQ(dynamic_cast<DynEn&>(unwrapped(*p)).rate(), 7);
  cfg.policy.name = "only:opencl0";
  EXPECT_STREQ(make_policy(cfg)->name(), "only:opencl0");
  for (const char* n : {"static", "budget", "cheapest"}) {
    cfg.policy.name = n;
    EXPECT_STREQ(make_policy(cfg)->name(), n);
  }
  cfg.policy.name = "fastest";
  EXPECT_THROW(make_policy(cfg), ConfigError);
}

TEST(MakePolicy, EnvironmentOverridesTheConfig) {
  setenv("CEI_POLICY", "dynen", 1);
  setenv("CEI_DYNEN_J_PER_S", "2.5", 1);
  Config cfg = default_config();
  apply_env_overrides(cfg);
  unsetenv("CEI_POLICY");
  unsetenv("CEI_DYNEN_J_PER_S");
  auto p = make_policy(cfg);
  ASSERT_STREQ(p->name(), "dynen");
  EXPECT_EQ(dynamic_cast<DynEn&>(unwrapped(*p)).rate(), 2.5);
}

}  // namespace
}  // namespace cei::rt::test
