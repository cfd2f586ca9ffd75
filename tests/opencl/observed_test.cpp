// observed_program on PoCL with the environment switches on: the trace's transfer slices and
// device queues, and which devices a run opens under each policy.
#include <gtest/gtest.h>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

class Observed : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cei-opencl-observed-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Runs the program with `env` set; its exit status (0: its results were right).
  int run(const std::string& env, const std::string& mode) {
    const std::string cmd = env + " " + CEI_OPENCL_PROGRAM + " " + mode + " > " +
                            (dir_ / "out.txt").string() + " 2> " + (dir_ / "err.txt").string();
    return std::system(cmd.c_str());
  }
  fs::path dir_;
};

TEST_F(Observed, TransfersHaveTracksOfTheirOwnAndKernelsTheQueueThatRanThem) {
  // Two in-order queues: the platform hands kernels to them in turn.
  ASSERT_EQ(
      run("CEI_POLICY=only:opencl0 CEI_OPENCL_QUEUES=2 CEI_TRACE=" + (dir_ / "trace.json").string(),
          "trace"),
      0)
      << slurp(dir_ / "err.txt");
  const json doc = json::parse(slurp(dir_ / "trace.json"));
  int device = -1;
  std::map<std::pair<int, int>, std::string> tracks;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name" && e["args"]["name"] == "opencl0 (opencl)") device = e["pid"];
    if (e["name"] == "thread_name") tracks[{e["pid"], e["tid"]}] = e["args"]["name"];
  }
  ASSERT_GE(device, 0);
  const std::size_t bytes = (1 << 16) * sizeof(int);
  std::set<int> kernel_tracks, transfer_tracks;
  int uploads = 0, downloads = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] != "X" || e["pid"] != device) continue;
    const int tid = e["tid"];
    const std::string& track = tracks.at({device, tid});
    if (e["cat"] == "task") {
      EXPECT_EQ(track, "queue " + std::to_string(tid));
      kernel_tracks.insert(tid);
    } else {
      ASSERT_EQ(e["cat"], "transfer");
      EXPECT_EQ(track.rfind("transfers ", 0), 0u) << track;
      transfer_tracks.insert(tid);
      EXPECT_EQ(e["args"]["bytes"], bytes);
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      if (e["args"]["direction"] == "to_device") {
        ++uploads;
        EXPECT_GT(e["args"]["task"].get<int>(), 0);  // the task that needed it
      } else {
        EXPECT_EQ(e["args"]["direction"], "to_host");
        ++downloads;
      }
    }
  }
  // Four kernels read one vector: one upload between them, and each result comes back.
  EXPECT_EQ(uploads, 1);
  EXPECT_EQ(downloads, 4);
  EXPECT_EQ(kernel_tracks, (std::set<int>{0, 1}));
  for (int tid : transfer_tracks) EXPECT_EQ(kernel_tracks.count(tid), 0u) << tid;
}

TEST_F(Observed, OnlyCpuOpensNoDeviceUntilATaskNeedsOne) {
  ASSERT_EQ(run("CEI_POLICY=only:cpu", "startup"), 0) << slurp(dir_ / "err.txt");
  const std::string out = slurp(dir_ / "out.txt");
  EXPECT_NE(out.find("after a task the CPU can run: 0 devices open, platforms cpu\n"),
            std::string::npos)
      << out;
  // A task the CPU platform cannot run goes to a device, opened for it.
  EXPECT_NE(out.find("after a task only a device can run: 1 devices open, platforms cpu opencl0\n"),
            std::string::npos)
      << out;
}

TEST_F(Observed, OtherPoliciesMakeTheDevicesCandidatesForTheFirstTask) {
  // A cache of its own: no discovery has run with it yet, so nothing says the machine has no
  // device beyond the host's cores.
  const std::string cache = "CEI_OPENCL_CACHE=" + (dir_ / "cache").string() + " ";
  ASSERT_EQ(run(cache + "CEI_POLICY=dynperf", "startup"), 0) << slurp(dir_ / "err.txt");
  // The device is a candidate for the first task already (open before it, or in the background).
  EXPECT_NE(slurp(dir_ / "out.txt")
                .find("after a task the CPU can run: 1 devices open, platforms cpu opencl0\n"),
            std::string::npos)
      << slurp(dir_ / "out.txt");
  // Now it does, but a platforms file that lists the device, only:opencl0 and a run with no cache
  // open it before the first task as well.
  for (const std::string& env : std::vector<std::string>{
           cache + "CEI_POLICY=dynperf CEI_PLATFORMS=" CEI_LISTED_PLATFORMS,
           cache + "CEI_POLICY=only:opencl0", "CEI_OPENCL_CACHE=off CEI_POLICY=dynperf"}) {
    ASSERT_EQ(run(env, "startup"), 0) << env << "\n" << slurp(dir_ / "err.txt");
    EXPECT_NE(slurp(dir_ / "out.txt")
                  .find("after a task the CPU can run: 1 devices open, platforms cpu opencl0\n"),
              std::string::npos)
        << env << "\n"
        << slurp(dir_ / "out.txt");
  }
}

// A program whose registered CEs have no kernel opens no device, even one a platforms file lists
// as a competitor of the CPU (without the rule it opened in the background: 1 device).
TEST_F(Observed, AProgramWithoutKernelsOpensNoDevice) {
  const std::string cache = "CEI_OPENCL_CACHE=" + (dir_ / "cache").string() + " ";
  for (const std::string& env :
       std::vector<std::string>{cache + "CEI_POLICY=dynperf CEI_PLATFORMS=" CEI_LISTED_PLATFORMS,
                                cache + "CEI_POLICY=dynperf"}) {
    ASSERT_EQ(run(env, "native_only"), 0) << env << "\n" << slurp(dir_ / "err.txt");
    EXPECT_NE(slurp(dir_ / "out.txt")
                  .find("after a program without kernels: 0 devices open, platforms cpu\n"),
              std::string::npos)
        << env << "\n"
        << slurp(dir_ / "out.txt");
  }
}

// PoCL alone, found by discovery, is a fallback under DynPerf and DynEn (docs/policies.md): once a
// discovery on this machine found no other device, it opens only for a task that only it can run.
TEST_F(Observed, AutomaticPoliciesOpenAHostCoresDeviceForTheTasksOnlyItCanRun) {
  const std::string cache = "CEI_OPENCL_CACHE=" + (dir_ / "cache").string() + " ";
  ASSERT_EQ(run(cache + "CEI_POLICY=dynperf", "startup"), 0) << slurp(dir_ / "err.txt");
  bool marked = false;
  for (const auto& f : fs::directory_iterator(dir_ / "cache"))
    marked = marked || f.path().filename().string().starts_with("host-only-");
  if (!marked) GTEST_SKIP() << "a device with hardware of its own: the devices open at the start";
  for (const char* policy : {"dynperf", "dynen"}) {
    SCOPED_TRACE(policy);
    ASSERT_EQ(run(cache + "CEI_POLICY=" + policy, "startup"), 0) << slurp(dir_ / "err.txt");
    const std::string out = slurp(dir_ / "out.txt");
    EXPECT_NE(out.find("after a task the CPU can run: 0 devices open, platforms cpu\n"),
              std::string::npos)
        << out;
    EXPECT_NE(
        out.find("after a task only a device can run: 1 devices open, platforms cpu opencl0\n"),
        std::string::npos)
        << out;
  }
  // A policy the program sets replaces the one the device was left closed for: it opens.
  ASSERT_EQ(run(cache + "CEI_POLICY=dynperf", "own_policy"), 0) << slurp(dir_ / "err.txt");
  EXPECT_NE(slurp(dir_ / "out.txt")
                .find("after a policy the program set: 1 devices open, platforms cpu opencl0\n"),
            std::string::npos)
      << slurp(dir_ / "out.txt");
  // What PoCL or the ICD loader are told may change the devices found: discovery runs again.
  ASSERT_EQ(run(cache + "POCL_CEI_TEST_UNUSED=1 CEI_POLICY=dynperf", "startup"), 0)
      << slurp(dir_ / "err.txt");
  EXPECT_NE(slurp(dir_ / "out.txt")
                .find("after a task the CPU can run: 1 devices open, platforms cpu opencl0\n"),
            std::string::npos)
      << slurp(dir_ / "out.txt");
}

// The default platforms are named from what the last discovery here found, and open in the
// background; discovery is reconciled with it when it ends: a device it found that is not there
// now gives the tasks placed on it back (every result right), one it did not is added, and what
// discovery found is remembered.
TEST_F(Observed, ADeviceTheLastDiscoveryFoundThatIsGoneIsReconciledWithNoResultLost) {
  const std::string cache = "CEI_OPENCL_CACHE=" + (dir_ / "cache").string() + " ";
  ASSERT_EQ(run(cache + "CEI_POLICY=only:opencl0", "startup"), 0) << slurp(dir_ / "err.txt");
  fs::path devices;
  for (const auto& f : fs::directory_iterator(dir_ / "cache"))
    if (f.path().filename().string().starts_with("devices-")) devices = f.path();
  ASSERT_FALSE(devices.empty());
  const std::string found = slurp(devices);
  ASSERT_FALSE(found.empty());
  // The last discovery found a device that is not there, and not the one that is: opencl0 is
  // gone, the device found is new (the first free name, opencl1).
  std::ofstream(devices) << "0\tNo Such Device\n";
  ASSERT_EQ(run(cache + "CEI_POLICY=only:opencl0", "startup"), 0) << slurp(dir_ / "err.txt");
  EXPECT_NE(slurp(dir_ / "err.txt")
                .find("opencl0: the OpenCL device 'No Such Device' that the last discovery on "
                      "this machine found is not there now"),
            std::string::npos)
      << slurp(dir_ / "err.txt");
  EXPECT_NE(slurp(dir_ / "out.txt")
                .find("after a task only a device can run: 1 devices open, platforms cpu opencl0 "
                      "opencl1\n"),
            std::string::npos)
      << slurp(dir_ / "out.txt");
  EXPECT_EQ(slurp(devices).find("No Such Device"), std::string::npos) << slurp(devices);
  EXPECT_NE(slurp(devices).find(found.substr(found.find('\t'))), std::string::npos)
      << slurp(devices);
}

}  // namespace
