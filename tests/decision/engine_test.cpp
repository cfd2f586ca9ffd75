// The Decision Engine plugged into the real runtime: the policy the launch asks for, the profile
// loaded at start and saved at exit, and a wrong launch config refusing to run. Each case starts
// the runtime in a child process (death-test style) so that every one sees a fresh start.
#include "scripted.hpp"

#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

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

// Every launch variable out of its range stops the program with status 2 and a message naming
// it, before any platform opens (CEI_CPU_CORES=100000 started 12,000 threads and aborted;
// CEI_PLATFORMS=/dev/zero ate 24 GB; a directory there was ignored; CEI_OPENCL_MEM_CAP=0 or abc
// was taken silently).
struct BadValue {
  const char* variable;
  std::string value;
  std::string message;
  std::size_t file_bytes = 0;  // when not 0, `value` is a file of that many bytes, made by the test
};

void PrintTo(const BadValue& bad, std::ostream* os) {
  *os << bad.variable << "=" << bad.value;
}

class BadLaunchValue : public ::testing::TestWithParam<BadValue> {};

TEST_P(BadLaunchValue, StopsTheProgramWithStatus2NamingIt) {
  const BadValue& bad = GetParam();
  if (bad.file_bytes) std::ofstream(bad.value) << std::string(bad.file_bytes, '#');
  EXPECT_EXIT(
      {
        unsetenv("CEI_POLICY");
        unsetenv("CEI_PLATFORMS");
        setenv(bad.variable, bad.value.c_str(), 1);
        Runtime::instance();
        std::exit(0);
      },
      ::testing::ExitedWithCode(2), "cei: " + bad.message);
  if (bad.file_bytes) fs::remove(bad.value);
}

std::vector<BadValue> bad_values() {
  const std::string dir = fs::temp_directory_path().string();
  // Each test process its own: ctest runs the cases as processes at once.
  const std::string big = temp("cei-engine-big").string() + ".toml";
  return {
      {"CEI_CPU_CORES", "100000",
       "CEI_CPU_CORES: expected an integer from 0 to 1024, got '100000'"},
      {"CEI_CPU_CORES", "-1", "CEI_CPU_CORES: expected an integer from 0 to 1024, got '-1'"},
      {"CEI_CPU_CORES", "1.5", "CEI_CPU_CORES: expected an integer"},
      {"CEI_PLATFORMS", "/dev/zero", "CEI_PLATFORMS: '/dev/zero': not a regular file"},
      {"CEI_PLATFORMS", dir, "CEI_PLATFORMS: '" + dir + "': not a regular file"},
      {"CEI_PLATFORMS", big, "CEI_PLATFORMS: '" + big + "': larger than 1 MiB",
       kMaxConfigBytes + 1},
      {"CEI_PLATFORMS", dir + "/no-such-file.toml",
       "CEI_PLATFORMS: '" + dir + "/no-such-file.toml': cannot open the platform config"},
      {"CEI_POLICY", "only:gpu",
       "CEI_POLICY: unknown platform 'gpu' \\(platforms: cpu, opencl0, opencl1, ... one per "
       "OpenCL device found; did you mean 'cpu'\\?\\) in <embedded>"},
      {"CEI_PLATFORMS", std::string(CEI_DECISION_TEST_DATA) + "/missing_device.toml",
       std::string(CEI_DECISION_TEST_DATA) +
           "/missing_device.toml: platforms.gpu.device: no OpenCL device name contains "
           "'no-such-device' \\(devices: '"},
      {"CEI_OPENCL_MEM_CAP", "0", "CEI_OPENCL_MEM_CAP: expected a size from 1048576 to"},
      {"CEI_OPENCL_MEM_CAP", "abc", "CEI_OPENCL_MEM_CAP: expected a size"},
      {"CEI_OPENCL_MEM_CAP", "1X", "CEI_OPENCL_MEM_CAP: expected a size"},
      {"CEI_OPENCL_MEM_CAP", "2048T", "CEI_OPENCL_MEM_CAP: expected a size"},
      {"CEI_OPENCL_QUEUES", "65", "CEI_OPENCL_QUEUES: expected an integer from 0 to 64"},
      {"CEI_OPENCL_MAX_INFLIGHT", "many", "CEI_OPENCL_MAX_INFLIGHT: expected an integer"},
      {"CEI_OPENCL_NAIVE", "maybe", "CEI_OPENCL_NAIVE: expected 1, on, true, yes, 0, off"},
      {"CEI_OPENCL_IN_ORDER", "2", "CEI_OPENCL_IN_ORDER: expected 1, on"},
      {"CEI_OPENCL_CHECK_RESULTS", "maybe", "CEI_OPENCL_CHECK_RESULTS: expected 1, on"},
      {"CEI_OPENCL_CACHE", "/dev/null", "CEI_OPENCL_CACHE: '/dev/null' is not a directory"},
      {"CEI_MAX_IN_FLIGHT", "0", "CEI_MAX_IN_FLIGHT: expected an integer from 1 to"},
      {"CEI_BLOCK_CACHE_MB", "lots", "CEI_BLOCK_CACHE_MB: expected an integer from 0 to"},
      {"CEI_LOG", "verbose", "CEI_LOG: expected trace, debug, info, warn, error, critical or off"},
      {"CEI_SUMMARY", "2", "CEI_SUMMARY: expected 1, on"},
      {"CEI_PROGRESS", "yes please", "CEI_PROGRESS: expected 1, on"},
      {"CEI_DYNEN_J_PER_S", "inf", "CEI_DYNEN_J_PER_S: expected a number from 0 to 1e\\+09"},
      {"CEI_DYNEN_J_PER_S", "nan", "CEI_DYNEN_J_PER_S: expected a number"},
      {"CEI_REMOTE", "=http://127.0.0.1:1,token=T", "CEI_REMOTE: an entry with no node name"},
      {"CEI_REMOTE", "n=127.0.0.1:1,token=T", "CEI_REMOTE: n: bad URL '127.0.0.1:1'"},
      {"CEI_REMOTE", "n=http://h:1/a b,token=T", "CEI_REMOTE: n: bad URL 'http://h:1/a b'"},
      {"CEI_REMOTE", "n=http://[::1,token=T", "CEI_REMOTE: n: bad URL 'http://\\[::1'"},
      {"CEI_REMOTE", "n=http://127.0.0.1:99999,token=T", "CEI_REMOTE: n: bad URL"},
      {"CEI_REMOTE", "n=http://127.0.0.1:1", "CEI_REMOTE: n: missing token"},
      {"CEI_REMOTE", "n=http://127.0.0.1:1,token=", "CEI_REMOTE: n: token: must not be empty"},
      {"CEI_REMOTE", "n=http://h:1/x,token=T,per_gb=inf",
       "CEI_REMOTE: per_gb: expected a number >= 0, got 'inf'"},
      {"CEI_REMOTE", "n=http://h:1,token=T\r\nX-Evil: 1",
       "CEI_REMOTE: n: token: control characters \\(CR, LF, ...\\) are not allowed"},
      {"CEI_REMOTE", "n=http://h:1,token=T;n=http://h:2,token=T", "CEI_REMOTE: n: listed twice"},
      {"CEI_REMOTE", "cpu=http://h:1,token=T",
       "CEI_REMOTE: cpu: a platform of <embedded> has this name already"},
      {"CEI_REMOTE", "opencl0=http://h:1,token=T",
       "CEI_REMOTE: opencl0: a platform of <embedded> has this name already"},
      {"CEI_REMOTE", "n=http://h:1,token=T,timeout_ms=0",
       "CEI_REMOTE: timeout_ms: expected a number >= 1, got '0'"},
      {"CEI_PROFILE", "/dev/zero", "CEI_PROFILE: /dev/zero: not a regular file"},
      {"CEI_PROFILE", dir, "CEI_PROFILE: " + dir + ": not a regular file"},
      {"CEI_TRACE", dir + "/no-such-dir/trace.json",
       "CEI_TRACE: cannot write '" + dir + "/no-such-dir/trace.json': no directory '" + dir +
           "/no-such-dir'"},
      {"CEI_GRAPH", dir, "CEI_GRAPH: cannot write '" + dir + "': it is a directory"},
      {"CEI_PROFILE", dir + "/no-such-dir/profile.json",
       "CEI_PROFILE: cannot write '" + dir + "/no-such-dir/profile.json': no directory"},
      {"CEI_OPENCL_OPEN", "later", "CEI_OPENCL_OPEN: expected first or background, got 'later'"},
      {"CEI_REMOTE_JOIN", "/dev/null", "CEI_REMOTE_JOIN: '/dev/null' is not a folder"},
      {"CEI_REMOTE_JOIN", dir + "/no-such-dir",
       "CEI_REMOTE_JOIN: '" + dir + "/no-such-dir' is not a folder"},
  };
}

INSTANTIATE_TEST_SUITE_P(Engine, BadLaunchValue, ::testing::ValuesIn(bad_values()),
                         [](const auto& info) {
                           std::string name =
                               std::string(info.param.variable) + "_" + std::to_string(info.index);
                           return name;
                         });

// A run of decision_profile_run (profile_run.cpp): its stdin and stdout are pipes to the test.
struct ProfileRun {
  pid_t pid = -1;
  int to = -1, from = -1;

  ProfileRun(const fs::path& profile, const char* seconds) {
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) throw std::runtime_error("pipe");
    pid = ::fork();
    if (pid == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::close(in[1]);
      ::close(out[0]);
      ::setenv("CEI_PROFILE", profile.c_str(), 1);
      ::setenv("CEI_POLICY", "only:cpu", 1);
      ::execl(CEI_PROFILE_RUN, CEI_PROFILE_RUN, seconds, static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to = in[1];
    from = out[0];
  }
  std::string read_line() const {
    std::string line;
    char c = 0;
    while (::read(from, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  int finish() {
    (void)!::write(to, "\n", 1);
    ::close(to);
    ::close(from);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
  }
};

// Two runs that loaded the same profile both keep their runs: each save merges into what the file
// holds under its lock (the second save used to replace the first run's update).
TEST(Engine, TwoRunsSharingAProfileBothKeepTheirUpdates) {
  const fs::path path = temp("cei-engine-shared") += ".json";
  fs::remove(path);
  ProfileStore seed;
  seed.record(kSort, 0, "cpu", 100, 2.0);
  seed.save(path.string());
  ProfileRun a(path, "1.0"), b(path, "3.0");
  ASSERT_EQ(a.read_line(), "loaded");
  ASSERT_EQ(b.read_line(), "loaded");  // both loaded the seed before either saves
  EXPECT_EQ(a.finish(), 0);
  EXPECT_EQ(b.finish(), 0);
  ProfileStore after;
  after.load(path.string());
  const auto models = after.models();
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].sizes.at(0).second.runs, 3u) << "the seed's run and both runs' own";
  EXPECT_DOUBLE_EQ(models[0].sizes.at(0).second.mean_s, 2.0);
  fs::remove(path);
  fs::remove(path.string() + ".lock");
}

}  // namespace
}  // namespace cei::rt::test
