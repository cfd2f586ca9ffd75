#include <cei/rt/decision/energy.hpp>

#include "scripted_meter.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace cei::rt {
namespace {

using namespace std::chrono_literals;

// Without a meter a task's figure is the power model's, at once.
TEST(Energy, PowerModelIsActiveWattsTimesDuration) {
  const auto t0 = Clock::now();
  EXPECT_NEAR(model_energy(PowerModel{20, 4}, t0, t0 + 250ms), 5.0, 1e-9);
  EXPECT_EQ(model_energy(PowerModel{20, 4}, t0, t0 - 1s), 0);
  EXPECT_STREQ(to_string(EnergySource::PowerModel), "model");
}

// The ledger on a synthetic clock: seconds from t0.
struct Clocked {
  const Clock::time_point t0 = Clock::now();
  Clock::time_point at(double s) const {
    return t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }
};

// A run's final figure, once delivered.
struct Figure {
  std::optional<double> joules;
  int calls = 0;
  EnergyLedger::Resolved sink() {
    return [this](double j) {
      joules = j;
      ++calls;
    };
  }
};

void expect_balanced(const EnergyTotals& t) {
  EXPECT_NEAR(t.tasks_j + t.idle_j + t.pending_j, t.total_j, 1e-9 * std::max(1.0, t.total_j));
  EXPECT_LE(t.tasks_j, t.total_j + 1e-9 * std::max(1.0, t.total_j));
}

TEST(EnergyLedger, SplitsEachSegmentAmongTheTasksRunningAtOnce) {
  Clocked c;
  EnergyLedger ledger;
  ledger.sample(c.at(0), 0);
  Figure a, b;
  const auto ra = ledger.begin(c.at(0)), rb = ledger.begin(c.at(0));
  ledger.end(ra, c.at(0), c.at(10), a.sink());
  ledger.end(rb, c.at(5), c.at(15), b.sink());
  ledger.sample(c.at(10), 1000);  // 100 W throughout
  // a alone for 5 s, then half of the next 5 s: 500 + 250 J; final, since the samples reach its
  // end. b runs past this sample: not final yet.
  ASSERT_TRUE(a.joules);
  EXPECT_NEAR(*a.joules, 750, 1e-9);
  EXPECT_FALSE(b.joules);
  ledger.sample(c.at(20), 2000);
  ASSERT_TRUE(b.joules);
  EXPECT_NEAR(*b.joules, 250 + 500, 1e-9);
  const EnergyTotals t = ledger.totals();
  EXPECT_NEAR(t.tasks_j, 1500, 1e-9);
  EXPECT_NEAR(t.idle_j, 500, 1e-9);  // 15 s to 20 s: nothing ran
  EXPECT_NEAR(t.total_j, 2000, 1e-9);
  EXPECT_NEAR(t.seconds, 20, 1e-9);
  expect_balanced(t);
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(b.calls, 1);
}

// A task that ends after a long idle stretch gets its own power over its own span; the idle
// energy before it is reported apart.
TEST(EnergyLedger, IdleEnergyIsNotChargedToTheNextTask) {
  Clocked c;
  EnergyLedger ledger;
  for (int s = 0; s <= 100; s += 10) ledger.sample(c.at(s), 1.0 * s);  // 1 W idle
  Figure f;
  const auto run = ledger.begin(c.at(100));
  ledger.sample(c.at(100.5), 150);  // 100 W while it runs
  ledger.end(run, c.at(100), c.at(101), f.sink());
  ledger.sample(c.at(101), 200);
  ASSERT_TRUE(f.joules);
  EXPECT_NEAR(*f.joules, 100, 1e-9);
  const EnergyTotals t = ledger.totals();
  EXPECT_NEAR(t.idle_j, 100, 1e-9);
  EXPECT_NEAR(t.tasks_j, 100, 1e-9);
  expect_balanced(t);
}

// While a run is open, nobody knows how its segments split: they wait, and ending the run does
// no splitting (that is the sampler's work, at its next sample).
TEST(EnergyLedger, AnOpenRunHoldsItsSegmentsBackUntilTheNextSampleAfterItsEnd) {
  Clocked c;
  EnergyLedger ledger;
  ledger.sample(c.at(0), 0);
  Figure a, d;
  const auto ra = ledger.begin(c.at(0));
  ledger.end(ra, c.at(2), c.at(4), a.sink());
  const auto rd = ledger.begin(c.at(12));
  for (int s = 10; s <= 30; s += 10) ledger.sample(c.at(s), 100.0 * s);
  ASSERT_TRUE(a.joules);
  EXPECT_NEAR(*a.joules, 200, 1e-9);
  EnergyTotals t = ledger.totals();
  EXPECT_NEAR(t.pending_j, 2000, 1e-9);  // 10 s to 30 s: d may have run there
  expect_balanced(t);
  ledger.end(rd, c.at(12), c.at(25), d.sink());
  EXPECT_FALSE(d.joules);
  EXPECT_NEAR(ledger.totals().pending_j, 2000, 1e-9);
  ledger.sample(c.at(40), 4000);
  ASSERT_TRUE(d.joules);
  EXPECT_NEAR(*d.joules, 800 + 500, 1e-9);
  t = ledger.totals();
  EXPECT_NEAR(t.pending_j, 0, 1e-9);
  EXPECT_NEAR(t.idle_j, 800 + 200 + 500 + 1000, 1e-9);
  expect_balanced(t);
}

TEST(EnergyLedger, ACancelledRunLeavesItsTimeIdle) {
  Clocked c;
  EnergyLedger ledger;
  ledger.sample(c.at(0), 0);
  ledger.cancel(ledger.begin(c.at(1)));
  ledger.sample(c.at(10), 50);
  const EnergyTotals t = ledger.totals();
  EXPECT_NEAR(t.idle_j, 50, 1e-9);
  EXPECT_NEAR(t.pending_j, 0, 1e-9);
}

// At shutdown the last sample makes everything final: a run the samples never passed keeps the
// share it had, a run never ended is dropped (its time was idle), later runs get 0 J.
TEST(EnergyLedger, CloseDeliversEveryRun) {
  Clocked c;
  EnergyLedger ledger;
  ledger.sample(c.at(0), 0);
  Figure a, late;
  const auto ra = ledger.begin(c.at(0));
  ledger.begin(c.at(1));  // never ended
  ledger.end(ra, c.at(5), c.at(15), a.sink());
  ledger.sample(c.at(10), 1000);
  EXPECT_FALSE(a.joules);
  ledger.close();
  ASSERT_TRUE(a.joules);
  EXPECT_NEAR(*a.joules, 500, 1e-9);
  const EnergyTotals t = ledger.totals();
  EXPECT_NEAR(t.idle_j, 500, 1e-9);
  EXPECT_NEAR(t.pending_j, 0, 1e-9);
  ledger.end(ledger.begin(), c.at(20), c.at(21), late.sink());
  ASSERT_TRUE(late.joules);
  EXPECT_EQ(*late.joules, 0);
  EXPECT_NEAR(ledger.totals().total_j, 1000, 1e-9);
}

// Many overlapping runs under a power that changes at every sample: each run delivered once, and
// the account balances.
TEST(EnergyLedger, TasksAndIdleAddUpToTheMeterWhateverTheOverlap) {
  Clocked c;
  EnergyLedger ledger(8);  // few pending segments: the merging path too
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  ledger.sample(c.at(0), 0);
  std::vector<Figure> figures(200);
  std::vector<EnergyLedger::RunId> open;
  double joules = 0, now = 0;
  std::size_t next = 0;
  while (next < figures.size() || !open.empty()) {
    // A few runs begin, a few end (anywhere after their begin), then a sample.
    for (int k = 0; k < 3 && next < figures.size(); ++k) open.push_back(ledger.begin(c.at(now)));
    for (std::size_t i = 0; i < open.size();)
      if (u(rng) < 0.5) {
        const double start = now + u(rng), end = start + 3 * u(rng);
        ledger.end(open[i], c.at(start), c.at(end), figures[next++].sink());
        open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
        if (next == figures.size()) break;
      } else {
        ++i;
      }
    if (next == figures.size())
      for (auto id : open) ledger.cancel(id);
    if (next == figures.size()) open.clear();
    now += 1 + u(rng);
    joules += 200 * u(rng);
    ledger.sample(c.at(now), joules);
    expect_balanced(ledger.totals());
  }
  ledger.sample(c.at(now + 10), joules + 5);
  ledger.close();
  double sum = 0;
  for (const Figure& f : figures) {
    ASSERT_EQ(f.calls, 1);
    EXPECT_GE(*f.joules, 0);
    sum += *f.joules;
  }
  const EnergyTotals t = ledger.totals();
  EXPECT_NEAR(sum, t.tasks_j, 1e-9 * t.total_j);
  EXPECT_NEAR(t.total_j, joules + 5, 1e-9 * t.total_j);
  EXPECT_NEAR(t.pending_j, 0, 1e-12);
  expect_balanced(t);
}

// A powercap tree laid out as the kernel does, in a temporary directory.
struct FakePowercap {
  std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("cei-powercap-" + std::to_string(::getpid()));
  FakePowercap() {
    write("intel-rapl:0", "package-0", 999'000'000, 1'000'000'000);
    write("intel-rapl:0:0", "core", 5, 1'000'000'000);  // subdomain: inside package-0
    write("intel-rapl:1", "package-1", 0, 1'000'000'000);
    std::filesystem::create_directories(root / "intel-rapl:2");  // no counter: skipped
  }
  ~FakePowercap() { std::filesystem::remove_all(root); }
  void write(const std::string& dom, const std::string& name, long uj, long range) {
    std::filesystem::create_directories(root / dom);
    std::ofstream(root / dom / "name") << name << '\n';
    std::ofstream(root / dom / "max_energy_range_uj") << range << '\n';
    set(dom, uj);
  }
  void set(const std::string& dom, long uj) {
    std::ofstream(root / dom / "energy_uj") << uj << '\n';
  }
};

TEST(Energy, RaplSumsPackagesAndFoldsWrapArounds) {
  FakePowercap fake;
  auto meter = open_rapl_meter(fake.root.string());
  ASSERT_TRUE(meter);
  EXPECT_EQ(meter->source(), EnergySource::Rapl);
  const std::string d = meter->describe();
  EXPECT_NE(d.find("package-0"), std::string::npos) << d;
  EXPECT_NE(d.find("package-1"), std::string::npos) << d;
  EXPECT_EQ(d.find("core"), std::string::npos) << d;
  EXPECT_EQ(meter->read_joules(), 0);
  fake.set("intel-rapl:0", 2'000'000);  // wrapped: 1 J to the top, 2 J after
  fake.set("intel-rapl:1", 500'000);
  EXPECT_NEAR(meter->read_joules(), 3.5, 1e-9);
  fake.set("intel-rapl:0:0", 900'000'000);  // subdomains never count
  EXPECT_NEAR(meter->read_joules(), 3.5, 1e-9);
}

TEST(Energy, NoPowercapNoMeter) {
  EXPECT_FALSE(open_rapl_meter("/nonexistent/powercap"));
}

TEST(Energy, SamplerSplitsRaplEnergyAfterTheTask) {
  FakePowercap fake;
  auto meter = open_rapl_meter(fake.root.string());
  ASSERT_TRUE(meter);
  MeterSampler sampler(std::move(meter), 5ms);
  EXPECT_EQ(sampler.source(), EnergySource::Rapl);
  const auto run = sampler.begin();
  const auto start = Clock::now();
  fake.set("intel-rapl:1", 8'000'000);  // 8 J appear during the task
  const auto end = Clock::now();
  std::optional<double> joules;
  sampler.end(run, start, end, [&](double j) { joules = j; });
  const EnergyTotals t = sampler.finish();
  ASSERT_TRUE(joules);
  EXPECT_GE(*joules, 0.0);
  EXPECT_LE(*joules, 8.0 + 1e-9);
  EXPECT_NEAR(t.total_j, 8.0, 1e-9);
  EXPECT_NEAR(t.tasks_j, *joules, 1e-12);
  EXPECT_NEAR(t.tasks_j + t.idle_j, 8.0, 1e-9);
}

// The task path only records intervals: every meter read is the sampler's (or a settle's), never
// a task's thread, and the sampler thread delivers the figures by itself.
TEST(Energy, NoMeterReadOnTheTaskPath) {
  auto log = std::make_shared<test::MeterLog>();
  MeterSampler sampler(std::make_unique<test::ScriptedMeter>(50.0, log), 1ms);
  constexpr int kRuns = 300;
  std::mutex mu;
  std::condition_variable cv;
  int delivered = 0;
  std::set<std::uint64_t> delivering;
  std::uint64_t task_id = 0;
  std::thread task([&] {
    task_id = test::thread_token();
    for (int i = 0; i < kRuns; ++i) {
      const auto run = sampler.begin();
      const auto start = Clock::now();
      volatile double x = 0;  // a little work, so runs have some length
      for (int k = 0; k < 2000; ++k) x = x + k;
      sampler.end(run, start, Clock::now(), [&](double) {
        std::lock_guard g(mu);
        ++delivered;
        delivering.insert(test::thread_token());
        cv.notify_all();
      });
    }
  });
  task.join();
  {
    std::unique_lock g(mu);
    ASSERT_TRUE(cv.wait_for(g, 60s, [&] { return delivered == kRuns; }))
        << "the sampler's thread delivered " << delivered << " of " << kRuns;
    EXPECT_FALSE(delivering.contains(task_id));
    EXPECT_FALSE(delivering.contains(test::thread_token()));
  }
  EXPECT_FALSE(log->read_by(task_id));
  EXPECT_GT(log->count(), 1);
  const EnergyTotals t = sampler.finish();
  EXPECT_GT(t.total_j, 0);
  EXPECT_GT(t.tasks_j, 0);
  EXPECT_NEAR(t.pending_j, 0, 1e-12);
  EXPECT_NEAR(t.tasks_j + t.idle_j, t.total_j, 1e-9 * t.total_j);
}

// NVML is present only on NVIDIA machines; elsewhere the meter must be absent, not an error.
TEST(Energy, NvmlLoadsOnlyWhereTheDriverIs) {
  auto meter = open_nvml_meter(0);
  const bool driver = std::filesystem::exists("/proc/driver/nvidia/version");
  if (!driver) {
    EXPECT_FALSE(meter);
    return;
  }
  ASSERT_TRUE(meter);
  EXPECT_EQ(meter->source(), EnergySource::Nvml);
  const double a = meter->read_joules();
  std::this_thread::sleep_for(200ms);
  const double b = meter->read_joules();
  EXPECT_GE(b, a);
  std::printf("%s: %.3f J in 200 ms\n", meter->describe().c_str(), b - a);
}

}  // namespace
}  // namespace cei::rt
