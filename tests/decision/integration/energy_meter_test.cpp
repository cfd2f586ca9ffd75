// The real CPU platform under a meter (a scripted counter in place of RAPL, installed with
// set_meter_opener before the runtime starts): its workers never read the meter, every task's
// figure arrives by the time drain() returns, and the account balances.
#include "../scripted_meter.hpp"

#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/energy.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/trace/run_record.hpp>
#include <cei/rt/trace/run_summary.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
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
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(3);
  IVec r = *static_cast<const IVec*>(a[0]);
  for (auto& x : r) x += 1;
  while (std::chrono::steady_clock::now() < until) {
  }
  *static_cast<IVec*>(a[1]) = std::move(r);
}

const rt::ParamInfo work_params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()}};
const rt::NativeVersion work_native[] = {{"Native", &spin_inc}};
const rt::CeInfo work_ce{"work",      "MeteredCEI", false,  work_params, 1, &rt::type_ops<IVec>(),
                         work_native, 1,            nullptr};

// What the runtime tells observers: the threads tasks ran on, the late figures, the account.
struct Watch final : rt::Observer {
  std::mutex mu;
  std::set<std::thread::id> task_threads;  // where tasks started and finished
  std::map<std::uint64_t, double> joules;  // task -> its late figures
  std::map<std::uint64_t, std::string> sources;
  std::set<std::thread::id> reporting;  // where the late figures came from
  std::optional<rt::PlatformEnergy> account;

  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task&, const rt::Platform&, int) override {
    std::lock_guard g(mu);
    task_threads.insert(std::this_thread::get_id());
  }
  void task_finished(const rt::Task& t, const rt::Platform&, int, bool) override {
    std::lock_guard g(mu);
    task_threads.insert(std::this_thread::get_id());
    const auto& tm = const_cast<rt::Task&>(t).timing();
    sources[t.id()] = tm.energy_source ? tm.energy_source : "";
    EXPECT_EQ(tm.energy_j, 0) << "a metered task's Timing holds no figure";
  }
  void task_energy(std::uint64_t task, const rt::Platform&, double j, const char* source) override {
    std::lock_guard g(mu);
    joules[task] += j;
    EXPECT_STREQ(source, "rapl");
    reporting.insert(std::this_thread::get_id());
  }
  void transfer(const rt::TransferEvent&) override {}
  void platform_energy(const rt::Platform& p, const rt::PlatformEnergy& e) override {
    std::lock_guard g(mu);
    EXPECT_EQ(p.name(), "cpu");
    account = e;
  }
  void run_finished() override {}
};

std::shared_ptr<rt::test::MeterLog> meter_log = std::make_shared<rt::test::MeterLog>();
std::shared_ptr<Watch> watch = std::make_shared<Watch>();
std::shared_ptr<rt::trace::Recorder> recorder = std::make_shared<rt::trace::Recorder>();

IVec iota(std::size_t n, int from) {
  IVec v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

TEST(EnergyMeter, WorkersNeverReadTheMeterAndEveryFigureArrivesByDrain) {
  constexpr int n = 12;
  std::vector<IVec> in, out(n);
  for (int i = 0; i < n; ++i) in.push_back(iota(64, i));
  {
    std::vector<std::unique_ptr<rt::Scope>> scopes;
    for (int i = 0; i < n; ++i) {
      scopes.push_back(std::make_unique<rt::Scope>(in[i]));
      scopes.push_back(std::make_unique<rt::Scope>(out[i]));
    }
    for (int i = 0; i < n; ++i) rt::assign(out[i], rt::call<IVec>(work_ce, rt::in<IVec>(in[i])));
    for (int i = 0; i < n; ++i) ASSERT_EQ(rt::sync_read(out[i]), iota(64, i + 1)) << "task " << i;
  }
  rt::Runtime::instance().drain();

  std::lock_guard g(watch->mu);
  ASSERT_FALSE(watch->task_threads.empty());
  for (const auto& id : watch->task_threads)
    EXPECT_FALSE(meter_log->read_by(id)) << "a worker read the meter";
  for (const auto& id : watch->reporting)
    EXPECT_FALSE(watch->task_threads.contains(id)) << "a worker split the meter's energy";
  EXPECT_GT(meter_log->count(), 1);

  ASSERT_EQ(watch->joules.size(), static_cast<std::size_t>(n)) << "figures missing after drain";
  ASSERT_EQ(watch->sources.size(), static_cast<std::size_t>(n));
  double sum = 0;
  for (const auto& [task, j] : watch->joules) {
    EXPECT_EQ(watch->sources[task], "rapl");
    EXPECT_GT(j, 0) << "task " << task;
    sum += j;
  }
  ASSERT_TRUE(watch->account);
  const rt::PlatformEnergy& a = *watch->account;
  EXPECT_STREQ(a.source, "rapl");
  EXPECT_NEAR(a.pending_j, 0, 1e-12);  // nothing in flight after drain
  EXPECT_NEAR(a.tasks_j, sum, 1e-9 * a.total_j);
  EXPECT_LE(a.tasks_j, a.total_j);
  EXPECT_GT(a.idle_j, 0);  // the meter ran before the first task
  EXPECT_NEAR(a.tasks_j + a.idle_j, a.total_j, 1e-9 * a.total_j);

  // The profiles learned the platform's measured power from the late figures.
  auto* store = dynamic_cast<rt::ProfileStore*>(rt::Runtime::instance().profiles());
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->measured_watts("cpu").has_value());

  // The trace and the summary see the same figures.
  const rt::trace::RunRecord run = recorder->snapshot();
  for (const auto& t : run.tasks) EXPECT_NEAR(t.timing.energy_j, watch->joules[t.id], 1e-12);
  const rt::trace::Summary s = rt::trace::summarize(run);
  ASSERT_EQ(s.energy.size(), 1u);
  EXPECT_TRUE(s.energy[0].metered);
  EXPECT_NEAR(s.energy[0].meter_j, a.total_j, 1e-12);
  EXPECT_NEAR(s.energy[0].idle_j, a.idle_j, 1e-12);
  EXPECT_EQ(s.energy[0].energy_source, "rapl");
}

}  // namespace
}  // namespace cei::test

int main(int argc, char** argv) {
  setenv("CEI_PLATFORMS", CEI_METERED_CONFIG, 1);
  unsetenv("CEI_POLICY");
  unsetenv("CEI_CPU_CORES");
  unsetenv("CEI_PROFILE");
  // Before the runtime starts: its platforms open their meters then.
  cei::rt::set_meter_opener([](const cei::rt::PlatformConfig& p) -> std::unique_ptr<cei::rt::EnergyMeter> {
    if (p.type != cei::rt::PlatformType::Cpu) return nullptr;
    return std::make_unique<cei::rt::test::ScriptedMeter>(cei::test::kWatts, cei::test::meter_log);
  });
  cei::rt::add_observer(cei::test::watch);
  cei::rt::add_observer(cei::test::recorder);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
