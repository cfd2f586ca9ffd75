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
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/energy.hpp>
#include <cei/rt/decision/energy_report.hpp>
#include <cei/rt/decision/forecast.hpp>
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/runtime.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
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

void use_decision_engine(rt::Runtime& rt, OpenCLPlatform& p, rt::PlatformConfig cfg) {
  if (cfg.host_cores < 0) cfg.host_cores = static_cast<int>(p.host_cores());
  const bool nvidia = p.device().vendor.find("NVIDIA") != std::string::npos;
  std::shared_ptr<rt::MeterSampler> meter = rt::MeterSampler::open_for(
      cfg, nvidia ? std::optional(nvml_index(p.device())) : std::nullopt);
  auto config = std::make_shared<const rt::PlatformConfig>(std::move(cfg));
  DecisionHooks hooks;
  hooks.forecast = [&rt, &p, config](const rt::Task& t, const Estimate& e) {
    rt::ForecastInput in{.now_s = rt.now_s(),
                         .transfer_s = e.transfer_s,
                         .bytes_moved = e.missing_bytes,
                         .exec = e.own.exec_s > 0 ? rt::Prediction{e.own.exec_s, e.own.time_source}
                                                  : rt::Prediction{}};
    std::optional<double> watts;
    if (const rt::Profiles* profiles = rt.profiles()) {
      in.exec = profiles->predict(t.ce(), -1, p.name(), e.input_bytes);
      watts = profiles->measured_watts(p.name());
    }
    // One kernel at a time on the device: everything in flight runs first.
    in.queue_s = e.tasks_in_flight * in.exec.seconds;
    // A CPU device (PoCL) also waits for the host cores' other work, as that work waits for it.
    // Its kernels are charged their share of the cores beside the CPU platform's workers
    // (host_cores.hpp says why).
    if (config->host_cores > 0)
      in.min_end_s = rt::host_cores().fluid_end_s(
          in.now_s, t, in.exec.seconds * rt::host_cores().cores_beside(&p, config->host_cores));
    return rt::compose_forecast(*config, in, watts);
  };
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
                 profiles->predict(t.ce(), -1, p.name(), e.input_bytes).seconds;
        },
        config->host_cores);
}

void add(rt::Runtime& rt, std::unique_ptr<OpenCLPlatform> p, rt::PlatformConfig cfg) {
  use_decision_engine(rt, *p, std::move(cfg));
  p->set_trace_hooks({&rt::observing, &rt::observe_task_started, &rt::observe_transfer});
  rt.add_platform(std::move(p));
}

// What a discovery found last on this machine: a marker in the program cache that every device
// computes on the host's cores (PoCL alone), named after what decides which devices discovery
// finds: the ICD loader's vendor files and the variables of the loader, PoCL and CEI that choose
// devices. Installing a driver adds a vendor file, so a GPU that comes with it is not missed; a
// GPU added under a driver already installed is missed until the marker goes (delete it, or run
// once with a policy that opens the devices: their discovery removes it). "" without a cache.
fs::path host_only_marker(const Options& o) {
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
  char name[40];
  std::snprintf(name, sizeof name, "host-only-%016zx", std::hash<std::string>{}(all));
  return fs::path(dir) / name;
}

bool known_host_only(const Options& o) {
  const fs::path marker = host_only_marker(o);
  std::error_code ec;
  return !marker.empty() && fs::exists(marker, ec);
}

void remember_discovery(const Options& o, bool host_only) {
  const fs::path marker = host_only_marker(o);
  if (marker.empty()) return;
  std::error_code ec;
  if (!host_only) {
    fs::remove(marker, ec);
  } else if (!fs::exists(marker, ec)) {
    fs::create_directories(marker.parent_path(), ec);
    std::ofstream(marker) << "every OpenCL device found computes on the host's cores\n";
  }
}

void open_devices(rt::Runtime& rt, const rt::Config& cfg) {
  try {
    const Options env = Options::from_env();
    for (const rt::PlatformConfig& pc : cfg.platforms) {
      if (pc.type != rt::PlatformType::OpenCL) continue;
      Options o = env;
      o.naive = o.naive || pc.naive;
      if (pc.memory_cap_bytes) o.mem_cap = pc.memory_cap_bytes;
      if (auto p = make_platform(pc.name, pc.device_match, o)) {
        add(rt, std::move(p), pc);
        continue;
      }
      // As any mistake in the launch config: the program must not run without a platform it
      // lists (every task placed there failed, and the run aborted). _exit, since this may run
      // on a task's thread with the runtime started (on demand), where exit would wait for it.
      std::string found;
      for (const auto& d : all_devices())
        found += (found.empty() ? "'" : ", '") + d.info.name + "'";
      std::fprintf(stderr,
                   "cei: %s: platforms.%s.device: no OpenCL device name contains '%s' (devices: "
                   "%s)\n",
                   cfg.source.c_str(), pc.name.c_str(), pc.device_match.c_str(),
                   found.empty() ? "none" : found.c_str());
      std::fflush(nullptr);
      std::_Exit(2);
    }
    if (cfg.all_opencl_devices) {
      const char* match = std::getenv("CEI_OPENCL_DEVICE");
      auto found = make_platforms(match ? match : "", env);
      bool host_only = !found.empty();
      for (auto& p : found) {
        rt::PlatformConfig pc = cfg.platform_or_default(p->name(), rt::PlatformType::OpenCL);
        host_only = host_only && (pc.host_cores < 0 ? p->host_cores() : pc.host_cores) > 0;
        add(rt, std::move(p), std::move(pc));
      }
      remember_discovery(env, host_only);
    }
  } catch (const std::exception& e) {
    // A broken driver must not take the CPU platform down with it.
    std::fprintf(stderr, "cei: OpenCL platforms disabled: %s\n", e.what());
  }
}

// Starting the driver and opening the devices costs tens of milliseconds (PoCL's start loads LLVM:
// 35-45 ms on the 2-core VM, 20% of a CPU-only Cholesky N=2048 there). The devices open only for
// a task that no platform open can run under only:<p> with p not an OpenCL platform, and under
// the policies that leave the devices on the host's cores to such tasks (the automatic ones with
// the embedded default) when the last discovery here found no other device. Otherwise they open
// before the first task, kernels built at first use: opened in the background, the devices came
// too late for a program that submits its whole graph at once (on the H100, DynPerf placed every
// matmul 2048/256 task on the CPU before the GPU was there: 0.55 s against 0.09 s), and building
// every CE's kernel ahead made a bezier run on the GPU take 50 s instead of 1.
const bool registered = rt::register_platform_factory("opencl", [](rt::Runtime& rt) {
  std::shared_ptr<const rt::Config> cfg;
  try {
    cfg = std::make_shared<const rt::Config>(rt::launch_config());
  } catch (const rt::ConfigError&) {
    return;  // the policy factory reports the mistake and stops the program: nothing to open
  }
  const std::string& policy = cfg->policy.name;
  const rt::PlatformConfig* sole =
      policy.starts_with("only:") ? cfg->find(std::string_view(policy).substr(5)) : nullptr;
  if ((sole && sole->type != rt::PlatformType::OpenCL) ||
      (rt::discovered_host_devices_are_fallbacks(*cfg) && known_host_only(Options::from_env())))
    rt.open_on_demand([cfg](rt::Runtime& r) { open_devices(r, *cfg); });
  else
    open_devices(rt, *cfg);
});

}  // namespace
}  // namespace cei::opencl
