// cei-info: what CEI finds on this machine and the launch config in force, as a run would see
// them (CEI_PLATFORMS, CEI_POLICY, CEI_CPU_CORES, CEI_REMOTE, ...), without running anything.
//
//   cei-info               platforms, OpenCL devices and their memory, energy meters, policy
//   cei-info --version
#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/energy.hpp>
#include <cei/rt/decision/policies.hpp>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace rt = cei::rt;
namespace ocl = cei::opencl;

std::string gib(std::uint64_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1u << 30));
}

std::string origin(const char* variable) {
  const char* v = std::getenv(variable);
  return v && *v ? fmt::format(" ({})", variable) : "";
}

// The device a configured OpenCL platform opens: the first whose name contains the match.
const ocl::DeviceInfo* matching(const std::vector<ocl::DeviceInfo>& devices,
                                const std::string& match) {
  for (const auto& d : devices)
    if (d.name.find(match) != std::string::npos) return &d;
  return nullptr;
}

std::string device_line(const ocl::DeviceInfo& d) {
  return fmt::format("{} ({}, {}), {} device {}, {} memory, {} compute units, driver {}", d.name,
                     d.vendor, d.platform_name, d.type, d.index, gib(d.global_mem_bytes),
                     d.compute_units, d.driver_version);
}

std::string power_line(const rt::PlatformConfig& p, const std::string& meter) {
  std::string model = fmt::format("power model {} W active, {} W idle{}", p.power.active_w,
                                  p.power.idle_w, p.power_configured ? "" : " (default)");
  return meter.empty() ? model : "measured by " + meter + "; " + model;
}

// The meter a run would read for the platform: RAPL for the CPU, NVML for an NVIDIA device.
std::string meter_of(const rt::PlatformConfig& p, const ocl::DeviceInfo* device,
                     const std::vector<ocl::DeviceInfo>& devices) {
  std::unique_ptr<rt::EnergyMeter> meter;
  if (p.type == rt::PlatformType::Cpu) meter = rt::open_rapl_meter();
  if (p.type == rt::PlatformType::OpenCL && device &&
      device->vendor.find("NVIDIA") != std::string::npos) {
    unsigned nvidia_index = 0;  // NVML counts the NVIDIA GPUs alone
    for (const auto& d : devices)
      if (d.index < device->index && d.vendor.find("NVIDIA") != std::string::npos) ++nvidia_index;
    meter = rt::open_nvml_meter(nvidia_index);
  }
  return meter ? meter->describe() : "";
}

void print_platform(const rt::PlatformConfig& p, const std::vector<ocl::DeviceInfo>& devices,
                    const ocl::DeviceInfo* device, bool fallback) {
  std::string what;
  switch (p.type) {
    case rt::PlatformType::Cpu: {
      const unsigned threads = std::thread::hardware_concurrency();
      what = p.cores ? fmt::format("{} worker threads (of {} hardware threads)", p.cores, threads)
                     : fmt::format("{} worker threads (every hardware thread)", threads);
      break;
    }
    case rt::PlatformType::OpenCL:
      what = device ? device_line(*device)
                    : fmt::format("no OpenCL device name contains '{}'", p.device_match);
      break;
    case rt::PlatformType::Remote:
      what = "worker node at " + p.url;
      break;
  }
  fmt::print("  {:<10} {:<7} {}\n", p.name, rt::to_string(p.type), what);
  if (fallback)
    fmt::print("  {:<10} {:<7} a fallback: the automatic policies give it only what no other "
               "platform can run\n", "", "");
  fmt::print("  {:<10} {:<7} energy: {}\n", "", "", power_line(p, meter_of(p, device, devices)));
  if (p.prices.per_gb > 0 || p.prices.per_hour > 0)
    fmt::print("  {:<10} {:<7} prices: {} per GB moved, {} per hour\n", "", "", p.prices.per_gb,
               p.prices.per_hour);
}

void print_platforms(const rt::Config& cfg, const std::vector<ocl::DeviceInfo>& devices) {
  fmt::print("platforms:\n");
  for (const auto& p : cfg.platforms)
    print_platform(p, devices,
                   p.type == rt::PlatformType::OpenCL ? matching(devices, p.device_match) : nullptr,
                   p.fallback);
  // Found by discovery, a device computing on the host's cores is a fallback (docs/policies.md).
  const bool host_fallbacks = rt::discovered_host_devices_are_fallbacks(cfg);
  if (cfg.all_opencl_devices)
    for (const auto& d : devices) {
      const std::string name = fmt::format("opencl{}", d.index);
      print_platform(cfg.platform_or_default(name, rt::PlatformType::OpenCL), devices, &d,
                     host_fallbacks && d.type == "CPU");
    }
  if (const char* remote = std::getenv("CEI_REMOTE"); remote && *remote)
    fmt::print("  worker nodes of CEI_REMOTE: {}\n", remote);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lists the platforms CEI finds here, their devices, memory and energy meters, and "
               "the launch config in force (CEI_PLATFORMS, CEI_POLICY, ...)"};
  app.set_version_flag("--version", "cei-info (CEI) " CEI_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help and --version exit 0; a bad option 2
  }
  try {
    const rt::Config cfg = rt::config_from_env();
    const std::vector<ocl::DeviceInfo> devices = ocl::list_devices();
    fmt::print("CEI {}\n", CEI_VERSION);
    fmt::print("config: {}{}\n", cfg.source, origin("CEI_PLATFORMS"));
    fmt::print("policy: {}{}\n", cfg.policy.name, origin("CEI_POLICY"));
    if (!cfg.profile.path.empty())
      fmt::print("profile: {}{}\n", cfg.profile.path, origin("CEI_PROFILE"));
    print_platforms(cfg, devices);
    fmt::print("OpenCL devices found ({}):\n", devices.size());
    for (const auto& d : devices) fmt::print("  {}\n", device_line(d));
    if (devices.empty()) fmt::print("  none (no ICD, or no OpenCL platform installed)\n");
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "cei-info: {}\n", e.what());
    return 2;
  }
}
