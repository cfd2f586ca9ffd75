// The embedded default platforms (no CEI_PLATFORMS: cpu + every OpenCL device found) with the real
// CPU platform and PoCL, an OpenCL CPU device on the same cores. Under the automatic policies a
// task the CPU platform can run never goes to PoCL, although its kernel is far faster than the
// native version (which spins for 20 ms): PoCL would only take cores from the CPU workers. A CE
// with no native version still runs there. (engine_platforms_test lists the device in its
// platforms.toml: there DynPerf sends it almost every task.)
#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include "inc_ce.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;
using IVec = cei::Vector<int>;

void slow_inc(void* const* a) {
  inc_spinning(a, std::chrono::milliseconds(20));
}

constexpr const char* kSource = R"CL(
__kernel void inc(__global const int* v, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = v[i] + 1;
}
)CL";

const rt::OpenCLImpl inc_cl{"inc", kSource, "default_platforms_test.cl", "par0.x", "",
                            "",    "par0.x"};
const rt::ParamInfo inc_params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()}};
const rt::NativeVersion inc_native[] = {{"Native", &slow_inc}};
// Both versions, and the kernel alone (a CE whose CEI gives no native version).
const rt::CeInfo inc_ce{
    "inc", "DefaultCEI", false, inc_params, 1, &rt::type_ops<IVec>(), inc_native, 1, &inc_cl};
const rt::CeInfo inc_cl_only{"inc_cl_only",         "DefaultCEI", false, inc_params, 1,
                             &rt::type_ops<IVec>(), nullptr,      0,     &inc_cl};

// Tasks run per platform, from the runtime's own reports.
struct Tally final : rt::Observer {
  std::mutex mu;
  std::map<std::string, int> tasks;

  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task&, const rt::Platform&, int) override {}
  void task_finished(const rt::Task&, const rt::Platform& p, int, bool failed) override {
    std::lock_guard g(mu);
    if (!failed) ++tasks[p.name()];
  }
  void task_energy(std::uint64_t, const rt::Platform&, double, const char*) override {}
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}

  std::map<std::string, int> take() {
    rt::Runtime::instance().drain();
    std::lock_guard g(mu);
    return std::exchange(tasks, {});
  }
};

Tally& tally() {
  return observer<Tally>();
}
const bool tally_added = (tally(), true);  // observers must be in place before the start

// The OpenCL platform on the host's cores (PoCL), or null: the test is skipped without one.
rt::Platform* host_cores_device() {
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.wait_for_platforms();
  for (rt::Platform* p : runtime.platforms())
    if (std::strcmp(p->kind(), "opencl") == 0 && rt::host_cores().has(p)) return p;
  return nullptr;
}

// Tasks run neither by the CPU platform nor by the host's device.
int others(const std::map<std::string, int>& tasks, const rt::Platform* pocl) {
  int n = 0;
  for (const auto& [name, count] : tasks)
    if (name != "cpu" && name != pocl->name()) n += count;
  return n;
}

// A fresh history (nothing profiled: every platform is explored first) and the named policy, as a
// launch with CEI_POLICY=<name> would have them.
void use_policy(const std::string& name) {
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.drain();
  rt::Config cfg = rt::launch_config();
  cfg.policy.name = name;
  auto store = std::make_unique<rt::ProfileStore>(
      rt::ProfileOptions{cfg.profile.explore_runs, cfg.profile.default_exec_s});
  runtime.set_policy(rt::make_policy(cfg, store.get()));
  runtime.set_profiles(std::move(store));
  tally().take();
}

// n independent tasks of `ce`, submitted back to back (the CPU workers busy: DynPerf's case for
// sending PoCL work), after two waited for one by one (both platforms idle); checks every result.
void run(const rt::CeInfo& ce, int n) {
  for (int i = 0; i < 2; ++i) {
    IVec in = iota(64, i);
    rt::Scope scope(in);
    IVec out = rt::call<IVec>(ce, rt::in<IVec>(in));
    ASSERT_EQ(out, iota(64, i + 1));
  }
  run_independent(ce, n, 64);
}

TEST(DefaultPlatforms, AutomaticPoliciesRunOnTheCpuWhatItCanRun) {
  ASSERT_TRUE(tally_added);
  ASSERT_EQ(rt::launch_config().source, "<embedded>");
  rt::Platform* pocl = host_cores_device();
  if (!pocl) GTEST_SKIP() << "no OpenCL device on the host's cores (PoCL) among the defaults";
  for (const char* policy : {"dynperf", "dynen"}) {
    SCOPED_TRACE(policy);
    use_policy(policy);
    run(inc_ce, 24);
    auto tasks = tally().take();
    EXPECT_EQ(tasks[pocl->name()], 0);
    EXPECT_EQ(tasks["cpu"] + others(tasks, pocl), 26) << "every task ran, on the CPU or a GPU";
  }
}

TEST(DefaultPlatforms, TheDeviceStillRunsWhatOnlyItCan) {
  rt::Platform* pocl = host_cores_device();
  if (!pocl) GTEST_SKIP() << "no OpenCL device on the host's cores (PoCL) among the defaults";
  use_policy("dynperf");
  run(inc_cl_only, 6);
  auto tasks = tally().take();
  EXPECT_EQ(tasks["cpu"], 0);
  // PoCL runs them, unless a device with hardware of its own (a GPU beside it) is there: no
  // fallback, that one takes them.
  EXPECT_EQ(tasks[pocl->name()] + others(tasks, pocl), 8);
  // And only:<device> sends it everything, as before.
  use_policy("only:" + pocl->name());
  run(inc_ce, 6);
  EXPECT_EQ(tally().take()[pocl->name()], 8);
}

}  // namespace
}  // namespace cei::test

// The launch config is the embedded default: no platforms file, DynPerf. No cache: the devices
// open before the first task, as on a machine not seen before (with a cache that says the machine
// has only devices on the host's cores, they open for the first task only they can run).
int main(int argc, char** argv) {
  setenv("CEI_OPENCL_CACHE", "off", 1);
  unsetenv("CEI_PLATFORMS");
  unsetenv("CEI_POLICY");
  unsetenv("CEI_CPU_CORES");
  unsetenv("CEI_PROFILE");
  unsetenv("CEI_OPENCL_DEVICE");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
