#include <cei/rt/decision/energy.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

namespace cei::rt {
namespace {

using namespace std::chrono_literals;

TEST(Energy, PowerModelAttributionIsActiveWattsTimesDuration) {
  const auto t0 = Clock::now();
  Attribution a = attribute_energy(nullptr, PowerModel{20, 4}, t0, t0 + 250ms);
  EXPECT_EQ(a.source, EnergySource::PowerModel);
  EXPECT_NEAR(a.joules, 5.0, 1e-9);
  EXPECT_EQ(attribute_energy(nullptr, PowerModel{20, 4}, t0, t0 - 1s).joules, 0);
  EXPECT_STREQ(to_string(a.source), "model");
}

TEST(Energy, SamplesAreInterpolatedOverTheTask) {
  const auto t0 = Clock::now();
  // 10 W for a second, then 30 W for a second.
  std::vector<EnergySample> s{{t0, 100}, {t0 + 1s, 110}, {t0 + 2s, 140}};
  EXPECT_NEAR(*energy_between(s, t0, t0 + 2s), 40, 1e-9);
  EXPECT_NEAR(*energy_between(s, t0 + 500ms, t0 + 1500ms), 5 + 15, 1e-9);
  EXPECT_NEAR(*energy_between(s, t0 + 1s, t0 + 1s), 0, 1e-9);
  EXPECT_FALSE(energy_between(s, t0 - 1ms, t0 + 1s));  // before the first sample
  EXPECT_FALSE(energy_between(s, t0, t0 + 3s));        // after the last
  EXPECT_FALSE(energy_between({}, t0, t0));
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

TEST(Energy, SamplerAttributesMeteredEnergyWithShare) {
  FakePowercap fake;
  auto meter = open_rapl_meter(fake.root.string());
  ASSERT_TRUE(meter);
  MeterSampler sampler(std::move(meter), 5ms);
  EXPECT_EQ(sampler.source(), EnergySource::Rapl);
  const auto start = Clock::now();
  fake.set("intel-rapl:1", 8'000'000);  // 8 J appear during the task
  std::this_thread::sleep_for(30ms);
  const auto end = Clock::now();
  std::this_thread::sleep_for(10ms);
  Attribution a = attribute_energy(&sampler, PowerModel{1000, 0}, start, end, 0.5);
  EXPECT_EQ(a.source, EnergySource::Rapl);
  // The 8 J rise lies between the first sample after start and the last before end, give or take
  // the one sampling period that straddles each edge.
  EXPECT_GT(a.joules, 0.0);
  EXPECT_LE(a.joules, 4.0 + 1e-9);
  // A window the samples do not cover falls back to the power model.
  Attribution old = attribute_energy(&sampler, PowerModel{10, 0}, start - 1h, start - 1h + 1s);
  EXPECT_EQ(old.source, EnergySource::PowerModel);
  EXPECT_NEAR(old.joules, 10, 1e-9);
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
