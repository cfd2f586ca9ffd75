// The Decision Engine driving the real CPU platform and a real PoCL device, with CE tables written
// by hand as ceic generates them. `work` has a native version made clearly slower (it spins for
// 20 ms) than its OpenCL kernel; platforms.toml makes the device's power model prohibitive.
#include <cei/array.hpp>
#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include "inc_ce.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;

// Placement by the profiles alone, before the runtime starts: PoCL computes on the cores that the
// suite's other tests load, and its kernels then run 2-3x behind their profile, which second
// thoughts rightly act on (moving queued tasks to the CPU; tested apart, second_thoughts_*.cpp).
// These tests check what the profiles decide.
const bool profiles_alone = (setenv("CEI_SECOND_THOUGHTS", "off", 1), true);
using IVec = cei::Vector<int>;

constexpr auto kNativeSpin = std::chrono::milliseconds(20);
constexpr double kSpinS = 0.020;

void slow_inc(void* const* a) {
  inc_spinning(a, kNativeSpin);
}

// Busy for a fraction of a millisecond (enough for the power model to matter), far below the
// native spin; s * 0 cannot be folded without fast-math, so the loop stays.
constexpr const char* kSource = R"CL(
__kernel void work(__global const int* v, __global int* out) {
  size_t i = get_global_id(0);
  float s = (float)v[i];
  for (int k = 0; k < 4000; ++k) s = s * 0.5f + 1.0f;
  out[i] = v[i] + 1 + (int)(s * 0.0f);
}
)CL";

const rt::OpenCLImpl work_cl{"work", kSource, "engine_platforms_test.cl", "par0.x", "",
                             "",     "par0.x"};
const rt::ParamInfo work_params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()}};
const rt::NativeVersion work_native[] = {{"Native", &slow_inc}};
const rt::CeInfo work_ce{"work",      "EngineCEI", false,   work_params, 1, &rt::type_ops<IVec>(),
                         work_native, 1,           &work_cl};

// Tasks and joules per platform, from the runtime's own reports.
struct Tally final : rt::Observer {
  struct Row {
    int tasks = 0;
    double joules = 0;
  };
  std::mutex mu;
  std::map<std::string, Row> rows;
  std::map<std::string, rt::Forecast> last_forecast;

  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate> candidates, std::size_t,
                      const char*) override {
    std::lock_guard g(mu);
    for (const auto& c : candidates) last_forecast[c.platform->name()] = c.forecast;
  }
  void task_started(const rt::Task&, const rt::Platform&, int) override {}
  void task_finished(const rt::Task& t, const rt::Platform& p, int, bool failed) override {
    if (failed) return;
    std::lock_guard g(mu);
    Row& r = rows[p.name()];
    ++r.tasks;
    r.joules += t.timing().energy_j;
  }
  // A meter's figures come after the tasks, at the latest when drain() returns.
  void task_energy(std::uint64_t, const rt::Platform& p, double joules, const char*) override {
    std::lock_guard g(mu);
    rows[p.name()].joules += joules;
  }
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}

  Row take(const std::string& platform) {
    std::lock_guard g(mu);
    Row r = rows[platform];
    rows.clear();
    return r;
  }
};

Tally& tally() {
  return observer<Tally>();
}
// Observers must be in place before the runtime starts.
const bool tally_added = (tally(), true);

// A fresh history and the named policy, as a launch with CEI_POLICY=<name> would have them.
void use_policy(const std::string& name) {
  rt::Runtime& runtime = rt::Runtime::instance();
  // The device opens in the background: a launch's first tasks may run before it is there. These
  // tests compare the platforms' forecasts and shares once both are.
  runtime.wait_for_platforms();
  runtime.drain();
  rt::Config cfg = rt::launch_config();
  cfg.policy.name = name;
  auto store = std::make_unique<rt::ProfileStore>(
      rt::ProfileOptions{cfg.profile.explore_runs, cfg.profile.default_exec_s});
  runtime.set_policy(rt::make_policy(cfg, store.get()));
  runtime.set_profiles(std::move(store));
  tally().take("");
}

// n tasks one after the other, each waited for: the queues stay empty, so choices follow the
// execution and energy forecasts alone.
void run_one_by_one(int n) {
  for (int i = 0; i < n; ++i) {
    IVec in = iota(256, i);
    rt::Scope scope(in);
    IVec out = rt::call<IVec>(work_ce, rt::in<IVec>(in));
    ASSERT_EQ(out, iota(256, i + 1));
  }
}

TEST(EnginePlatforms, ConfigSelectsExactlyTheListedPlatforms) {
  std::vector<std::string> names;
  for (rt::Platform* p : rt::Runtime::instance().platforms()) names.push_back(p->name());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"cl", "cpu"}));
  auto* cpu = rt::Runtime::instance().find_platform("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->workers(), 2u);  // cores = 2 in platforms.toml
  EXPECT_NE(dynamic_cast<opencl::OpenCLPlatform*>(rt::Runtime::instance().find_platform("cl")),
            nullptr);
}

TEST(EnginePlatforms, ForecastsCarryTimeEnergyAndTheirSources) {
  ASSERT_TRUE(tally_added);
  use_policy("dynperf");
  const double before = rt::Runtime::instance().now_s();
  run_one_by_one(4);  // both platforms explored, then measured
  std::map<std::string, rt::Forecast> f;
  {
    std::lock_guard g(tally().mu);
    f = tally().last_forecast;
  }
  ASSERT_EQ(f.count("cpu"), 1u);
  ASSERT_EQ(f.count("cl"), 1u);
  for (auto& [name, fc] : f) {
    SCOPED_TRACE(name);
    EXPECT_EQ(fc.time_source, rt::Source::Measured);
    EXPECT_EQ(fc.energy_source, rt::Source::Default);  // the config's power model, no meter
    // One time base for every platform: seconds since the runtime started.
    EXPECT_GT(fc.end_s, before);
    EXPECT_LT(fc.end_s, rt::Runtime::instance().now_s() + 1.0);
  }
  EXPECT_GE(f["cpu"].exec_s, 0.95 * kSpinS);
  EXPECT_LT(f["cl"].exec_s, f["cpu"].exec_s);
  EXPECT_DOUBLE_EQ(f["cpu"].energy_j, 1 * f["cpu"].exec_s);
  EXPECT_DOUBLE_EQ(f["cl"].energy_j, 20000 * f["cl"].exec_s);
}

TEST(EnginePlatforms, DynPerfSendsAlmostEveryTaskToTheFastPlatform) {
  use_policy("dynperf");
  run_one_by_one(2);  // exploration: one run on each platform
  tally().take("");
  run_independent(work_ce, 40, 256);
  rt::Runtime::instance().drain();
  const Tally::Row cl = tally().take("cl");
  // The kernel takes well under a tenth of the spin: a balanced split leaves the CPU a few.
  EXPECT_GE(cl.tasks, 34) << "of 40";
}

// A first run without a profile: the batch is submitted before any task has run. Placed by the
// guesses (1 ms everywhere), the two CPU workers would take two thirds of it; measured first, the
// CPU's 20 ms loses to the kernel for all but the task that measured it (and what it could start
// at once while the device was being measured).
TEST(EnginePlatforms, AFirstBatchWaitsForTheMeasurementsInsteadOfTheGuesses) {
  use_policy("dynperf");
  run_independent(work_ce, 40, 256);
  rt::Runtime::instance().drain();
  const Tally::Row cpu = tally().take("cpu");
  EXPECT_LE(cpu.tasks, 4) << "of 40";
}

TEST(EnginePlatforms, OnlySendsEveryTaskToThatPlatform) {
  use_policy("only:cpu");
  run_independent(work_ce, 12, 256);
  rt::Runtime::instance().drain();
  EXPECT_EQ(tally().take("cpu").tasks, 12);
  use_policy("only:cl");
  run_independent(work_ce, 12, 256);
  rt::Runtime::instance().drain();
  EXPECT_EQ(tally().take("cl").tasks, 12);
}

TEST(EnginePlatforms, DynEnPicksTheLowerEnergyPlatformWhenThePowerModelSaysSo) {
  // cl: a fraction of a ms at 20 kW (joules per task), cpu: 20 ms at 1 W (20 mJ): 20 ms of
  // delay is worth 100 mJ at 5 J/s, far less than what the device would burn.
  use_policy("dynen");
  run_one_by_one(2);
  tally().take("");
  run_one_by_one(10);
  rt::Runtime::instance().drain();
  std::map<std::string, Tally::Row> rows;
  {
    std::lock_guard g(tally().mu);
    rows = tally().rows;
  }
  EXPECT_EQ(rows["cpu"].tasks, 10);
  EXPECT_EQ(rows["cl"].tasks, 0);
  // Energy attributed from the power model: 1 W over at least the spin.
  EXPECT_GE(rows["cpu"].joules, 10 * 0.95 * kSpinS);
  EXPECT_LT(rows["cpu"].joules, 10 * 0.5);
  tally().take("");
  // The same history under DynPerf: the device wins on time.
  use_policy("dynperf");
  run_one_by_one(2);
  tally().take("");
  run_one_by_one(10);
  rt::Runtime::instance().drain();
  const Tally::Row cl = tally().take("cl");
  EXPECT_EQ(cl.tasks, 10);
  EXPECT_GT(cl.joules, 0);  // 20 kW over the kernel's span
}

}  // namespace
}  // namespace cei::test
