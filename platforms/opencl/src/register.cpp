// Plugs the OpenCL platforms into the runtime at start, as the launch config says: each `opencl`
// platform it lists (the first device whose name contains its `device`, with its naive mode and
// memory cap), or with the embedded default every device ("opencl0", ...; CEI_OPENCL_DEVICE
// narrows them). Each one forecasts and accounts energy through the Decision Engine: the profiles,
// the platform's power model and prices, and NVML on NVIDIA devices. The devices open after the
// start, never on the program's path (see the factory at the end).
#include "devices.hpp"
#include "programs.hpp"

#include <unistd.h>
#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/ce.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/energy.hpp>
#include <cei/rt/decision/energy_report.hpp>
#include <cei/rt/decision/env.hpp>
#include <cei/rt/decision/forecast.hpp>
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/worker_pool.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cei::opencl {
namespace {

namespace fs = std::filesystem;

// NVML numbers NVIDIA GPUs alone; the ICD's order is taken to agree with it.
unsigned nvml_index(const DeviceInfo& device) {
  unsigned n = 0;
  for (const auto& d : list_devices()) {
    if (d.index == device.index) break;
    if (d.vendor.find("NVIDIA") != std::string::npos) ++n;
  }
  return n;
}

// Forecasts of p through the Decision Engine: its profiles, power and prices. While p opens,
// the time it still needs comes before its queue (Estimate::opening_s).
std::function<rt::Forecast(const rt::Task&, const Estimate&)> forecast_hook(
    rt::Runtime& rt, OpenCLPlatform& p, std::shared_ptr<const rt::PlatformConfig> config) {
  return [&rt, &p, config](const rt::Task& t, const Estimate& e) {
    rt::ForecastInput in{.now_s = rt.now_s(),
                         .transfer_s = e.transfer_s,
                         .bytes_moved = e.missing_bytes,
                         .exec = e.own.exec_s > 0 ? rt::Prediction{e.own.exec_s, e.own.time_source}
                                                  : rt::Prediction{}};
    std::optional<double> watts;
    if (const rt::Profiles* profiles = rt.profiles()) {
      in.exec =
          profiles->predict(t.ce(), rt::Task::kernel_version(t.quality()), p.name(), e.input_bytes);
      watts = profiles->measured_watts(p.name());
    }
    // One kernel at a time on the device: everything in flight runs first.
    in.queue_s = e.opening_s + e.tasks_in_flight * in.exec.seconds;
    // A CPU device (PoCL) also waits for the host cores' other work, as that work waits for it.
    // Its kernels are charged their share of the cores beside the CPU platform's workers
    // (host_cores.hpp says why).
    if (config->host_cores > 0)
      in.min_end_s = rt::host_cores().fluid_end_s(
          in.now_s, t, in.exec.seconds * rt::host_cores().cores_beside(&p, config->host_cores));
    return rt::compose_forecast(*config, in, watts);
  };
}

// The energy meter of a device: NVML on an NVIDIA device, else none (the power model).
std::shared_ptr<rt::MeterSampler> open_meter(const rt::PlatformConfig& cfg, const DeviceInfo& d) {
  const bool nvidia = d.vendor.find("NVIDIA") != std::string::npos;
  return rt::MeterSampler::open_for(cfg, nvidia ? std::optional(nvml_index(d)) : std::nullopt);
}

void use_decision_engine(rt::Runtime& rt, OpenCLPlatform& p, rt::PlatformConfig cfg,
                         std::shared_ptr<rt::MeterSampler> meter) {
  if (cfg.host_cores < 0) cfg.host_cores = static_cast<int>(p.host_cores());
  auto config = std::make_shared<const rt::PlatformConfig>(std::move(cfg));
  DecisionHooks hooks;
  hooks.forecast = forecast_hook(rt, p, config);
  if (meter) {
    // A kernel is metered from its enqueue to its end; the sampler's thread splits the energy
    // and reports it (an NVML read takes milliseconds: never on the completion path).
    struct Runs {
      std::mutex mu;
      std::unordered_map<const rt::Task*, rt::MeterSampler::RunId> ids;  // kernels in flight
      rt::MeterSampler::RunId take(const rt::Task& t) {
        std::lock_guard g(mu);
        auto it = ids.find(&t);
        if (it == ids.end()) return 0;
        const auto id = it->second;
        ids.erase(it);
        return id;
      }
    };
    auto runs = std::make_shared<Runs>();
    hooks.started = [meter, runs](const rt::Task& t) {
      const auto id = meter->begin();
      std::lock_guard g(runs->mu);
      runs->ids[&t] = id;
    };
    hooks.abandoned = [meter, runs](const rt::Task& t) {
      if (const auto id = runs->take(t)) meter->cancel(id);
    };
    hooks.energy = [&rt, &p, meter, runs](rt::Task& t) {
      auto& timing = t.timing();
      timing.energy_source = rt::to_string(meter->source());
      if (const auto id = runs->take(t))
        meter->end(
            id, timing.start, timing.end,
            rt::task_energy_report(rt, p, t.id(), timing.end - timing.start, meter->source()));
      return 0.0;  // the report brings the figure
    };
    hooks.settle_energy = [&p, meter](bool stopping) {
      if (!stopping) meter->settle();
      rt::report_platform_energy(p, *meter, stopping ? meter->finish() : meter->totals());
    };
  } else {
    hooks.energy = [config](rt::Task& t) {
      auto& timing = t.timing();
      timing.energy_source = rt::to_string(rt::EnergySource::PowerModel);
      return rt::model_energy(config->power, timing.start, timing.end);
    };
  }
  p.set_decision_hooks(std::move(hooks));
  if (config->host_cores > 0)
    rt::host_cores().join(
        &p,
        [&rt, &p, config](const rt::Task& t) {
          const rt::Profiles* profiles = rt.profiles();
          if (!profiles) return 0.0;
          const Estimate e = p.estimate(t);
          return e.tasks_in_flight * rt::host_cores().cores_beside(&p, config->host_cores) *
                 profiles
                     ->predict(t.ce(), rt::Task::kernel_version(t.quality()), p.name(),
                               e.input_bytes)
                     .seconds;
        },
        config->host_cores);
}

// The hooks of an open device.
void set_up(rt::Runtime& rt, OpenCLPlatform& p, rt::PlatformConfig cfg,
            std::shared_ptr<rt::MeterSampler> meter) {
  use_decision_engine(rt, p, std::move(cfg), std::move(meter));
  p.set_trace_hooks({&rt::observing, &rt::observe_task_started, &rt::observe_transfer});
}

Options options_for(const Options& env, const rt::PlatformConfig& pc) {
  Options o = env;
  o.naive = o.naive || pc.naive;
  if (pc.memory_cap_bytes) o.mem_cap = pc.memory_cap_bytes;
  o.between_launches = &rt::WorkerPool::share_next;
  return o;
}

// What the last discovery on this machine found, kept in the program cache under names keyed by
// what decides which devices discovery finds: the ICD loader's vendor files and the variables of
// the loader, PoCL and CEI that choose devices. Two entries:
//  - "host-only-<key>": every device found computes on the host's cores (PoCL alone). Installing
//    a driver adds a vendor file, so a GPU that comes with it is not missed; a GPU added under a
//    driver already installed is missed until the marker goes (delete it, or run once with a
//    policy that opens the devices: their discovery removes it).
//  - "devices-<key>": every device found, in discovery order, with the seconds from the start of
//    discovery until it was open (-1: not opened by that run): the names and expected opening
//    times of the platforms that open in the background.
// "" without a cache.
fs::path discovery_file(const Options& o, const char* kind) {
  const std::string dir = o.cache_dir.empty() ? default_cache_dir() : o.cache_dir;
  if (dir.empty() || dir == "off") return {};
  std::vector<std::string> key;
  for (char** e = environ; *e; ++e) {
    const std::string_view v = *e;
    if (v.starts_with("OCL_ICD_") || v.starts_with("POCL_") || v.starts_with("CEI_OPENCL_DEVICE="))
      key.emplace_back(v);
  }
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(vendors ? vendors : "/etc/OpenCL/vendors", ec)) {
    std::ifstream in(f.path());
    key.push_back(
        f.path().string() + "\n" +
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  }
  std::sort(key.begin(), key.end());
  std::string all;
  for (const auto& k : key) all += k + '\0';
  char name[48];
  std::snprintf(name, sizeof name, "%s-%016zx", kind, std::hash<std::string>{}(all));
  return fs::path(dir) / name;
}

bool known_host_only(const Options& o) {
  const fs::path marker = discovery_file(o, "host-only");
  std::error_code ec;
  return !marker.empty() && fs::exists(marker, ec);
}

// A device as the last discovery found it.
struct Known {
  std::string device;  // its name
  double open_s = -1;  // from the start of discovery until it was open; -1: unknown
};

// Expected opening time of a platform named in a launch config with no measurement here yet.
constexpr double kDefaultOpenS = 0.1;

// An unreadable or damaged entry is no entry: the devices are discovered before the first task.
std::vector<Known> known_devices(const Options& o) {
  std::vector<Known> out;
  const fs::path file = discovery_file(o, "devices");
  if (file.empty()) return out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    char* end = nullptr;
    const double s = std::strtod(line.c_str(), &end);
    if (tab == std::string::npos || tab == 0 || end != line.c_str() + tab || !(s < 3600)) return {};
    out.push_back({line.substr(tab + 1), s});
  }
  return out;
}

// Writes the new entries whole (a temporary file renamed over the old one): a run reading them
// at the same time sees the old or the new, never half. `host_only`: what the embedded default's
// discovery found (none for a launch config's platforms, which leave the marker as it is).
void remember_discovery(const Options& o, std::optional<bool> host_only,
                        const std::vector<Known>& found) {
  const fs::path marker = discovery_file(o, "host-only");
  if (marker.empty()) return;
  std::error_code ec;
  fs::create_directories(marker.parent_path(), ec);
  if (host_only == false) {
    fs::remove(marker, ec);
  } else if (host_only == true && !fs::exists(marker, ec)) {
    std::ofstream(marker) << "every OpenCL device found computes on the host's cores\n";
  }
  const fs::path file = discovery_file(o, "devices");
  const std::vector<Known> before = known_devices(o);
  const fs::path tmp = file.string() + "." + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    for (const Known& k : found) {
      double s = k.open_s;
      for (const Known& b : before)  // a device this run did not open keeps its last time
        if (s < 0 && b.device == k.device) s = b.open_s;
      out << s << '\t' << k.device << '\n';
    }
    if (!out) return fs::remove(tmp, ec), void();
  }
  fs::rename(tmp, file, ec);
}

[[noreturn]] void missing_device(const rt::Config& cfg, const rt::PlatformConfig& pc,
                                 const std::vector<Device>& devices) {
  // As any mistake in the launch config: the program must not run without a platform it lists
  // (every task placed there failed, and the run aborted). _exit, since this may run on a task's
  // or an opener's thread with the runtime started, where exit would wait for it.
  std::string found;
  for (const auto& d : devices) found += (found.empty() ? "'" : ", '") + d.info.name + "'";
  std::fprintf(stderr,
               "cei: %s: platforms.%s.device: no OpenCL device name contains '%s' (devices: %s)\n",
               cfg.source.c_str(), pc.name.c_str(), pc.device_match.c_str(),
               found.empty() ? "none" : found.c_str());
  std::fflush(nullptr);
  std::_Exit(2);
}

double seconds_since(rt::Clock::time_point t0) {
  return std::chrono::duration<double>(rt::Clock::now() - t0).count();
}

// CEI_OPENCL_OPEN=first, or no discovery known here yet: the devices open before the first task.
void open_devices(rt::Runtime& rt, const rt::Config& cfg) {
  try {
    const Options env = Options::from_env();
    const auto t0 = rt::Clock::now();
    for (const rt::PlatformConfig& pc : cfg.platforms) {
      if (pc.type != rt::PlatformType::OpenCL) continue;
      auto p = make_platform(pc.name, pc.device_match, options_for(env, pc));
      if (!p) missing_device(cfg, pc, all_devices());
      set_up(rt, *p, pc, open_meter(pc, p->device()));
      rt.add_platform(std::move(p));
    }
    if (cfg.all_opencl_devices) {
      const char* match = std::getenv("CEI_OPENCL_DEVICE");
      auto found = make_platforms(match ? match : "", env);
      bool host_only = !found.empty();
      std::vector<Known> known;
      for (auto& p : found) {
        rt::PlatformConfig pc = cfg.platform_or_default(p->name(), rt::PlatformType::OpenCL);
        host_only = host_only && (pc.host_cores < 0 ? p->host_cores() : pc.host_cores) > 0;
        known.push_back({p->device().name, seconds_since(t0)});
        auto meter = open_meter(pc, p->device());
        set_up(rt, *p, std::move(pc), std::move(meter));
        rt.add_platform(std::move(p));
      }
      remember_discovery(env, host_only, known);
    }
  } catch (const std::exception& e) {
    // A broken driver must not take the CPU platform down with it.
    std::fprintf(stderr, "cei: OpenCL platforms disabled: %s\n", e.what());
  }
}

// A platform that is a candidate before its device is found (the launch config names it, or the
// last discovery here found its device).
struct Expected {
  OpenCLPlatform* platform;
  std::string device;  // its device's name (exact), or a launch config's part of it
  bool exact;
  rt::PlatformConfig config;
};

// On the opener's thread: discovery, then each expected platform gets its device (or is gone),
// and the devices nobody expected are added.
void open_expected(rt::Runtime& rt, const rt::Config& cfg, const std::vector<Expected>& expected) {
  const Options env = Options::from_env();
  const auto t0 = rt::Clock::now();
  std::vector<Device> devices;
  try {
    devices = all_devices();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cei: OpenCL platforms disabled: %s\n", e.what());
  }
  const char* match = std::getenv("CEI_OPENCL_DEVICE");
  std::vector<bool> taken(devices.size());
  std::vector<Known> found(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) found[i].device = devices[i].info.name;
  bool host_only = true;
  auto open = [&](OpenCLPlatform& p, std::size_t i, const rt::PlatformConfig& pc) {
    try {
      // NVML's start takes tens of milliseconds: beside the device's, not after it, so the
      // device takes tasks as soon as it is open (a meter that fails to open is no meter).
      auto meter = std::async(std::launch::async, [&] { return open_meter(pc, devices[i].info); });
      p.open(devices[i].info.index, [&](OpenCLPlatform& q) { set_up(rt, q, pc, meter.get()); });
    } catch (const std::exception& e) {
      p.gone(std::string("the device did not open: ") + e.what());
      return;
    }
    taken[i] = true;
    found[i].open_s = seconds_since(t0);
    rt.platform_opened(p);
    host_only = host_only && (pc.host_cores < 0 ? p.host_cores() : pc.host_cores) > 0;
  };
  std::set<std::string> names;
  for (const Expected& x : expected) {
    names.insert(x.platform->name());
    std::size_t i = 0;
    if (x.exact)  // the same device as last time, in discovery order
      while (i < devices.size() && (taken[i] || devices[i].info.name != x.device)) ++i;
    else
      while (i < devices.size() && devices[i].info.name.find(x.device) == std::string::npos) ++i;
    if (i < devices.size())
      open(*x.platform, i, x.config);
    else if (x.exact)
      x.platform->gone("the OpenCL device '" + x.device +
                       "' that the last discovery on this machine found is not there now");
    else
      missing_device(cfg, x.config, devices);
  }
  if (!cfg.all_opencl_devices) return remember_discovery(env, std::nullopt, found);
  bool any = false;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (match && devices[i].info.name.find(match) == std::string::npos) continue;
    any = true;
    if (taken[i]) continue;
    std::size_t n = 0;  // a device new here: the first name free
    while (names.contains("opencl" + std::to_string(n))) ++n;
    const std::string name = "opencl" + std::to_string(n);
    names.insert(name);
    auto p = std::make_unique<OpenCLPlatform>(name, options_for(env, {}), 0.0);
    rt::PlatformConfig pc = cfg.platform_or_default(name, rt::PlatformType::OpenCL);
    open(*p, i, pc);
    if (p->is_open()) rt.add_platform(std::move(p));
  }
  remember_discovery(env, any && host_only, found);
}

// The platforms of the launch config, and with the embedded default those of the last discovery
// here, are candidates from now on; their devices are discovered and opened in the background.
// False, having added nothing, when the default has no discovery known here to name them from.
bool expect_devices(rt::Runtime& rt, std::shared_ptr<const rt::Config> cfg) {
  const Options env = Options::from_env();
  const std::vector<Known> known = known_devices(env);
  if (cfg->all_opencl_devices && known.empty()) return false;
  std::vector<Expected> expected;
  auto expect = [&](const std::string& name, const std::string& device, bool exact,
                    const rt::PlatformConfig& pc, double open_s) {
    auto p = std::make_unique<OpenCLPlatform>(name, options_for(env, pc), open_s);
    // Nothing of the device is known before it opens: no share of the host's cores either.
    rt::PlatformConfig opening = pc;
    opening.host_cores = 0;
    DecisionHooks hooks;
    hooks.forecast =
        forecast_hook(rt, *p, std::make_shared<const rt::PlatformConfig>(std::move(opening)));
    p->set_decision_hooks(std::move(hooks));
    expected.push_back({p.get(), device, exact, pc});
    rt.add_platform(std::move(p));
  };
  for (const rt::PlatformConfig& pc : cfg->platforms) {
    if (pc.type != rt::PlatformType::OpenCL) continue;
    double open_s = kDefaultOpenS;
    for (const Known& k : known)
      if (k.open_s >= 0 && k.device.find(pc.device_match) != std::string::npos) {
        open_s = k.open_s;
        break;
      }
    expect(pc.name, pc.device_match, false, pc, open_s);
  }
  if (cfg->all_opencl_devices) {
    const char* match = std::getenv("CEI_OPENCL_DEVICE");
    std::size_t n = 0;
    for (const Known& k : known) {
      if (match && k.device.find(match) == std::string::npos) continue;
      const std::string name = "opencl" + std::to_string(n++);
      expect(name, k.device, true, cfg->platform_or_default(name, rt::PlatformType::OpenCL),
             k.open_s >= 0 ? k.open_s : kDefaultOpenS);
    }
  } else if (expected.empty()) {
    return true;  // no OpenCL platform listed: nothing to discover
  }
  rt.open_in_background(
      [cfg, expected = std::move(expected)](rt::Runtime& r) { open_expected(r, *cfg, expected); });
  return true;
}

// Whether no task of this program can run on a device: the generated code registers every CE
// before main, and none has a kernel. (No CE registered: tables made by hand, which the registry
// does not list, so nothing is known.)
bool no_kernels() {
  const std::vector<const rt::CeInfo*> ces = rt::registered_ces();
  return !ces.empty() && std::none_of(ces.begin(), ces.end(), [](const rt::CeInfo* ce) {
    return ce->opencl || ce->opencl_approximate;
  });
}

// Starting the driver and opening the devices costs tens of milliseconds (PoCL's start loads LLVM:
// 35-45 ms on the 2-core VM, 20% of a CPU-only Cholesky N=2048 there; on NVIDIA, discovery starts
// the CUDA driver: about half a second). The devices open only for a task that no platform open
// can run under only:<p> with p not an OpenCL platform, and under the policies that leave the
// devices on the host's cores to such tasks (the automatic ones with the embedded default) when
// the last discovery here found no other device, nor for a program whose CEs have no kernel (on
// the H100, NVIDIA's opening took a core for 0.25 s and its open device made each chained empty
// task cost 1.0-1.3 us instead of 0.6-0.9). Otherwise the platforms are candidates from the
// start and open in the background (expect_devices): an earlier attempt that added the devices
// only once open had a program that submits its whole graph at once place every task on the CPU
// before the GPU was there (on the H100, DynPerf on matmul 2048/256: 0.55 s against 0.09 s);
// a platform still opening forecasts its opening time, so DynPerf gives it what it will still
// finish first. Kernels build at first use per CE, on the platform's own thread: building every
// CE's kernel ahead made a bezier run on the GPU take 50 s instead of 1.
const bool registered = rt::register_platform_factory("opencl", [](rt::Runtime& rt) {
  std::shared_ptr<const rt::Config> cfg;
  try {
    cfg = std::make_shared<const rt::Config>(rt::launch_config());
  } catch (const rt::ConfigError&) {
    return;  // the policy factory reports the mistake and stops the program: nothing to open
  }
  // only:<p> for a <p> that is no device (the CPU, a node of the config or of CEI_REMOTE).
  const std::string_view policy = cfg->policy.name;
  const bool sole_elsewhere =
      policy.starts_with("only:") && !cfg->names_opencl_platform(policy.substr(5));
  if (sole_elsewhere || no_kernels() ||
      (rt::discovered_host_devices_are_fallbacks(*cfg) && known_host_only(Options::from_env())))
    rt.open_on_demand([cfg](rt::Runtime& r) { open_devices(r, *cfg); });
  else if (rt::opencl_env().open_first.value_or(false) || !expect_devices(rt, cfg))
    open_devices(rt, *cfg);
});

}  // namespace
}  // namespace cei::opencl
