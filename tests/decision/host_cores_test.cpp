#include "scripted.hpp"

#include <cei/rt/decision/host_cores.hpp>

#include <gtest/gtest.h>

#include <sched.h>

namespace cei::rt {
namespace {

using test::kSort;
using test::NamedPlatform;

class ScriptedTask final : public Task {
 public:
  std::uint64_t id() const override { return 1; }
  const CeInfo& ce() const override { return kSort; }
  std::vector<TaskArg>& args() override { return args_; }
  const std::vector<TaskArg>& args() const override { return args_; }
  void finish(std::exception_ptr) override {}
  Timing& timing() override { return timing_; }
  const Timing& timing() const override { return timing_; }

 private:
  std::vector<TaskArg> args_;
  Timing timing_;
};

TEST(HostCores, NothingJoinedBoundsNothing) {
  HostCores cores(2);
  ScriptedTask t;
  EXPECT_DOUBLE_EQ(cores.fluid_end_s(5, t, 4), 5);
  EXPECT_DOUBLE_EQ(cores.backlog_core_s(t), 0);
}

// The CPU platform holds 3 tasks of 0.1 s on one core each; PoCL holds 2 kernels of 0.05 s on
// both cores: 0.5 core-seconds in all, spread over 2 cores.
TEST(HostCores, SpreadsEveryMembersBacklogOverTheCores) {
  HostCores cores(2);
  NamedPlatform cpu("cpu"), pocl("opencl0", "opencl");
  cores.join(
      &cpu, [](const Task&) { return 3 * 0.1; }, 1);
  cores.join(
      &pocl, [](const Task&) { return 2 * 0.05 * 2; }, 2);
  ScriptedTask t;
  EXPECT_TRUE(cores.has(&cpu));
  EXPECT_DOUBLE_EQ(cores.backlog_core_s(t), 0.5);
  // One more CPU task (0.1 core-s) ends no sooner than now + 0.6 / 2; a kernel on both cores
  // (0.05 s x 2) no sooner than now + 0.6 / 2 as well: the same core-seconds.
  EXPECT_DOUBLE_EQ(cores.fluid_end_s(10, t, 0.1), 10.3);
  EXPECT_DOUBLE_EQ(cores.fluid_end_s(10, t, 0.05 * 2), 10.3);
}

TEST(HostCores, JoiningAgainReplacesTheBacklog) {
  HostCores cores(4);
  NamedPlatform cpu("cpu");
  cores.join(
      &cpu, [](const Task&) { return 8.0; }, 4);
  cores.join(
      &cpu, [](const Task&) { return 2.0; }, 1);
  ScriptedTask t;
  EXPECT_DOUBLE_EQ(cores.backlog_core_s(t), 2.0);
  EXPECT_DOUBLE_EQ(cores.fluid_end_s(0, t, 2.0), 1.0);
  NamedPlatform pocl("opencl0", "opencl");
  EXPECT_DOUBLE_EQ(cores.cores_beside(&pocl, 4), 4 * 4 / 5.0) << "the cores used are replaced too";
}

// A PoCL kernel timed beside the CPU platform's workers shared the cores with them: that share,
// not every core it could use alone, is what each second of it costs; with no core left to it,
// every core it runs on is taken from their work.
TEST(HostCores, AMemberIsChargedItsShareOfTheCoresBesideTheOthers) {
  HostCores cores(2);
  NamedPlatform cpu("cpu"), pocl("opencl0", "opencl");
  EXPECT_DOUBLE_EQ(cores.cores_beside(&pocl, 2), 2) << "alone: all it asks for";
  cores.join(
      &cpu, [](const Task&) { return 0.0; }, 1);
  cores.join(
      &pocl, [](const Task&) { return 0.0; }, 2);
  EXPECT_DOUBLE_EQ(cores.cores_beside(&pocl, 2), 2 * 2 / 3.0)
      << "two PoCL threads beside one CPU worker: two thirds of two cores";
  EXPECT_DOUBLE_EQ(cores.cores_beside(&cpu, 1), 1) << "no core left beside PoCL's two: all";
  cores.join(
      &cpu, [](const Task&) { return 0.0; }, 2);
  EXPECT_DOUBLE_EQ(cores.cores_beside(&pocl, 2), 2) << "both cores taken by CPU workers: all";
  HostCores eight(8);
  eight.join(
      &cpu, [](const Task&) { return 0.0; }, 3);
  EXPECT_DOUBLE_EQ(eight.cores_beside(&pocl, 2), 2) << "never more than it asks for";
  EXPECT_DOUBLE_EQ(eight.cores_beside(&pocl, 8), 8 * 8 / 11.0);
}

TEST(HostCores, BacklogFollowsTheTask) {
  HostCores cores(1);
  NamedPlatform cpu("cpu");
  cores.join(
      &cpu, [](const Task& t) { return t.ce().name == std::string("sort") ? 1.0 : 9.0; }, 1);
  ScriptedTask t;
  EXPECT_DOUBLE_EQ(cores.fluid_end_s(0, t, 0.5), 1.5);
}

TEST(HostCores, TheProcessWideOneCountsTheCoresTheProcessMayUse) {
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  EXPECT_EQ(host_cores().cores(), CPU_COUNT(&all));
  EXPECT_EQ(usable_cores(), static_cast<unsigned>(CPU_COUNT(&all)));
  // Confined to one core (as taskset or a container's cpuset would), the process counts one,
  // whatever the machine has.
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &all)) {
      CPU_SET(c, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const unsigned confined = usable_cores();
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  EXPECT_EQ(confined, 1u);
}

}  // namespace
}  // namespace cei::rt
