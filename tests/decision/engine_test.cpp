// The Decision Engine plugged into the real runtime: the policy the launch asks for, the profile
// loaded at start and saved at exit, and a wrong launch config refusing to run. Each case starts
// the runtime in a child process (death-test style) so that every one sees a fresh start.
#include "scripted.hpp"

#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace cei::rt::test {
namespace {

namespace fs = std::filesystem;

fs::path temp(const std::string& name) {
  return fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
}

// Exits 0 when the running runtime's policy is `want` and its profiles are ours.
[[noreturn]] void check_policy_and_exit(const char* want) {
  Runtime& rt = Runtime::instance();
  const bool ok = std::string(rt.policy()->name()) == want &&
                  dynamic_cast<ProfileStore*>(rt.profiles()) != nullptr;
  std::exit(ok ? 0 : 1);
}

TEST(Engine, RuntimeRunsThePolicyTheLaunchAsksFor) {
  EXPECT_EXIT(
      {
        setenv("CEI_POLICY", "dynen", 1);
        check_policy_and_exit("dynen");
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(
      {
        unsetenv("CEI_POLICY");
        check_policy_and_exit("dynperf");
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(
      {
        setenv("CEI_POLICY", "only:cpu", 1);
        check_policy_and_exit("only:cpu");
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Engine, WrongLaunchConfigStopsTheProgram) {
  EXPECT_EXIT(
      {
        setenv("CEI_POLICY", "fastest", 1);
        Runtime::instance();
      },
      ::testing::ExitedWithCode(2), "CEI_POLICY: unknown policy 'fastest'");
  const std::string bad = std::string(CEI_DECISION_TEST_DATA) + "/unknown_key.toml";
  EXPECT_EXIT(
      {
        unsetenv("CEI_POLICY");
        setenv("CEI_PLATFORMS", bad.c_str(), 1);
        Runtime::instance();
      },
      ::testing::ExitedWithCode(2), "unknown_key.toml:3: platforms.cpu.cors: unknown key");
  const std::string ill_typed = std::string(CEI_DECISION_TEST_DATA) + "/fallback_not_boolean.toml";
  EXPECT_EXIT(
      {
        unsetenv("CEI_POLICY");
        setenv("CEI_PLATFORMS", ill_typed.c_str(), 1);
        Runtime::instance();
      },
      ::testing::ExitedWithCode(2),
      "fallback_not_boolean.toml:6: platforms.pocl.fallback: expected a boolean, got string");
}

TEST(Engine, ProfileIsLoadedAtStartAndSavedAtExit) {
  const fs::path path = temp("cei-engine-profile") += ".json";
  ProfileStore seed;
  seed.record(kSort, 0, "cpu", 4096, 0.125);
  seed.save(path.string());
  // The child runs with the seeded profile, adds a run, and exits normally.
  EXPECT_EXIT(
      {
        unsetenv("CEI_POLICY");
        setenv("CEI_PROFILE", path.c_str(), 1);
        Profiles* p = Runtime::instance().profiles();
        const Prediction loaded = p->predict(kSort, 0, "cpu", 4096);
        if (loaded.source != Source::Measured || loaded.seconds != 0.125) std::exit(1);
        p->record(kSort, 0, "cpu", 8192, 0.25);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  ProfileStore after;
  after.load(path.string());
  EXPECT_EQ(after.predict(kSort, 0, "cpu", 8192).source, Source::Measured);
  EXPECT_EQ(after.predict(kSort, 0, "cpu", 8192).seconds, 0.25);
  EXPECT_EQ(after.predict(kSort, 0, "cpu", 4096).seconds, 0.125);
  fs::remove(path);
}

}  // namespace
}  // namespace cei::rt::test
