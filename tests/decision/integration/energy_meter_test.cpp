// The real CPU platform and a real PoCL device under meters (a scripted counter in place of RAPL
// and NVML, installed with set_meter_opener before the runtime starts): their workers and
// completion paths never read a meter, every task's figure arrives by the time drain() returns,
// and each platform's account balances.
#include "../scripted_meter.hpp"
#include "inc_ce.hpp"

#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/energy.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/trace/run_record.hpp>
#include <cei/rt/trace/run_summary.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;
using IVec = cei::Vector<int>;

constexpr double kWatts = 40;

void spin_inc(void* const* a) {
  inc_spinning(a, std::chrono::milliseconds(3));
}

constexpr const char* kSource = R"CL(
__kernel void work(__global const int* v, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = v[i] + 1;
}
)CL";

const rt::OpenCLImpl work_cl{"work", kSource, "energy_meter_test.cl", "par0.x", "", "", "par0.x"};
const rt::ParamInfo work_params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()}};
const rt::NativeVersion work_native[] = {{"Native", &spin_inc}};
const rt::CeInfo work_ce{
    "work", "MeteredCEI", false, work_params, 1, &rt::type_ops<IVec>(), work_native, 1, &work_cl};

// What the runtime tells observers: the threads tasks ran on, the late figures, the accounts.
struct Watch final : rt::Observer {
  std::mutex mu;
  std::set<std::uint64_t> task_threads;  // where tasks started and finished
  std::map<std::uint64_t, std::string> ran_on;
  std::map<std::uint64_t, std::string> timing_source;
  std::map<std::uint64_t, double> joules;  // task -> its late figures
  std::map<std::uint64_t, std::string> late_source;
  std::set<std::uint64_t> reporting;  // where the late figures came from
  std::map<std::string, rt::PlatformEnergy> accounts;

  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task&, const rt::Platform&, int) override {
    std::lock_guard g(mu);
    task_threads.insert(rt::test::thread_token());
  }
  void task_finished(const rt::Task& t, const rt::Platform& p, int, bool) override {
    const auto& tm = t.timing();
    std::lock_guard g(mu);
    task_threads.insert(rt::test::thread_token());
    ran_on[t.id()] = p.name();
    timing_source[t.id()] = tm.energy_source ? tm.energy_source : "";
    EXPECT_EQ(tm.energy_j, 0) << "a metered task's Timing holds no figure";
  }
  void task_energy(std::uint64_t task, const rt::Platform&, double j, const char* source) override {
    std::lock_guard g(mu);
    joules[task] += j;
    late_source[task] = source;
    reporting.insert(rt::test::thread_token());
  }
  void transfer(const rt::TransferEvent&) override {}
  void platform_energy(const rt::Platform& p, const rt::PlatformEnergy& e) override {
    std::lock_guard g(mu);
    accounts[p.name()] = e;
  }
  void run_finished() override {}
};

std::shared_ptr<rt::test::MeterLog> meter_log = std::make_shared<rt::test::MeterLog>();
std::shared_ptr<Watch> watch = std::make_shared<Watch>();
std::shared_ptr<rt::trace::Recorder> recorder = std::make_shared<rt::trace::Recorder>();

// Every task of the CE on `platform`, as only:<platform> sends them; then drain().
void run_on(const std::string& platform, int n) {
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.drain();
  rt::Config cfg = rt::launch_config();
  cfg.policy.name = "only:" + platform;
  auto store = std::make_unique<rt::ProfileStore>(
      rt::ProfileOptions{cfg.profile.explore_runs, cfg.profile.default_exec_s});
  runtime.set_policy(rt::make_policy(cfg, store.get()));
  runtime.set_profiles(std::move(store));
  run_independent(work_ce, n, 64);
  runtime.drain();
}

void check_platform(const std::string& platform, const char* source, int n) {
  std::lock_guard g(watch->mu);
  ASSERT_FALSE(watch->task_threads.empty());
  // The test's own thread reads the meters in drain(), as it may: it runs no task's completion.
  const auto me = rt::test::thread_token();
  for (const auto& id : watch->task_threads)
    if (id != me) {
      EXPECT_FALSE(meter_log->read_by(id)) << "a task's path read the meter";
    }
  // drain() may split what the sampler has not yet split, on the test's thread; that thread also
  // completes a task now and then (an OpenCL callback on an event already complete runs inline).
  for (const auto& id : watch->reporting)
    if (id != me) {
      EXPECT_FALSE(watch->task_threads.contains(id)) << "a task's path split the meter's energy";
    }
  EXPECT_GT(meter_log->count(), 1);

  int tasks = 0;
  double sum = 0;
  for (const auto& [task, name] : watch->ran_on) {
    if (name != platform) continue;
    ++tasks;
    EXPECT_EQ(watch->timing_source[task], source);
    ASSERT_TRUE(watch->joules.contains(task)) << "task " << task << ": no figure after drain";
    EXPECT_EQ(watch->late_source[task], source);
    EXPECT_GE(watch->joules[task], 0);
    sum += watch->joules[task];
  }
  EXPECT_EQ(tasks, n);
  ASSERT_TRUE(watch->accounts.contains(platform));
  const rt::PlatformEnergy& a = watch->accounts[platform];
  EXPECT_STREQ(a.source, source);
  EXPECT_NEAR(a.pending_j, 0, 1e-12);  // nothing in flight after drain
  EXPECT_GT(a.tasks_j, 0);
  EXPECT_NEAR(a.tasks_j, sum, 1e-9 * a.total_j);
  EXPECT_LE(a.tasks_j, a.total_j);
  EXPECT_GT(a.idle_j, 0);  // the meter ran before the first task
  EXPECT_NEAR(a.tasks_j + a.idle_j, a.total_j, 1e-9 * a.total_j);

  // The profiles learned the platform's measured power from the late figures.
  auto* store = dynamic_cast<rt::ProfileStore*>(rt::Runtime::instance().profiles());
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->measured_watts(platform).has_value());

  // The trace and the summary see the same figures.
  const rt::trace::RunRecord run = recorder->snapshot();
  for (const auto& t : run.tasks)
    if (t.platform == platform) {
      EXPECT_NEAR(t.timing.energy_j, watch->joules[t.id], 1e-12);
    }
  const rt::trace::Summary s = rt::trace::summarize(run);
  auto row = std::find_if(s.energy.begin(), s.energy.end(),
                          [&](const auto& e) { return e.platform == platform; });
  ASSERT_NE(row, s.energy.end());
  EXPECT_TRUE(row->metered);
  EXPECT_NEAR(row->meter_j, a.total_j, 1e-12);
  EXPECT_NEAR(row->idle_j, a.idle_j, 1e-12);
  EXPECT_EQ(row->energy_source, source);
}

TEST(EnergyMeter, CpuWorkersNeverReadTheMeterAndEveryFigureArrivesByDrain) {
  run_on("cpu", 12);
  check_platform("cpu", "rapl", 12);
}

TEST(EnergyMeter, OpenCLCompletionsNeverReadTheMeterAndEveryFigureArrivesByDrain) {
  ASSERT_NE(rt::Runtime::instance().find_platform("cl"), nullptr) << "no OpenCL device (PoCL)";
  run_on("cl", 12);
  check_platform("cl", "nvml", 12);
}

}  // namespace
}  // namespace cei::test

int main(int argc, char** argv) {
  setenv("CEI_PLATFORMS", CEI_METERED_CONFIG, 1);
  unsetenv("CEI_POLICY");
  unsetenv("CEI_CPU_CORES");
  unsetenv("CEI_PROFILE");
  // Before the runtime starts: its platforms open their meters then.
  cei::rt::set_meter_opener([](const cei::rt::PlatformConfig& p) {
    return std::make_unique<cei::rt::test::ScriptedMeter>(cei::test::kWatts, cei::test::meter_log,
                                                          p.type == cei::rt::PlatformType::Cpu
                                                              ? cei::rt::EnergySource::Rapl
                                                              : cei::rt::EnergySource::Nvml);
  });
  cei::rt::add_observer(cei::test::watch);
  cei::rt::add_observer(cei::test::recorder);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
