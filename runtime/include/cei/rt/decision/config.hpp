// The launch configuration of the Decision Engine and the platforms: which platforms exist, their
// power models and prices, the policy and its parameters, failure defaults. Read from TOML
// (CEI_PLATFORMS=platforms.toml) or the embedded default (cpu + every OpenCL device), then the
// environment overrides CEI_POLICY, CEI_DYNEN_J_PER_S, CEI_CPU_CORES and CEI_PROFILE.
//
//   cei::rt::Config cfg = cei::rt::config_from_env();       // throws cei::rt::ConfigError
//   for (const auto& p : cfg.platforms) ...                  // p.name, p.type, p.power, p.prices
//   auto policy = cei::rt::make_policy(cfg);                 // <cei/rt/decision/policies.hpp>
//
// Every mistake is a ConfigError whose what() reads "file:line: key: message", or "CEI_X: message"
// for an environment variable. config_from_env also range-checks every other launch variable
// (<cei/rt/decision/env.hpp>), so that one wrong value stops the program before any platform opens.
#pragma once

#include <cei/rt/ce.hpp>

#include <cstddef>
#include <limits>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cei::rt {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string file, int line, std::string key, const std::string& message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 0 when the mistake has no line (an environment variable)
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }  // what() without file, line and key

 private:
  std::string file_;
  int line_;
  std::string key_;
  std::string message_;
};

// The most worker threads a CPU platform may have (`cores`, CEI_CPU_CORES): 100000 asked for
// exhausted the process's threads and aborted.
inline constexpr int kMaxCpuCores = 1024;
// The largest platforms file read: a config is a few KiB.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;

enum class PlatformType : std::uint8_t { Cpu, OpenCL, Remote };
const char* to_string(PlatformType t);

struct PowerModel {
  double active_w = 0;  // drawn while the platform runs a task
  double idle_w = 0;    // drawn while it waits
};

struct Prices {
  double per_gb = 0;    // currency units per GB moved to or from the platform
  double per_hour = 0;  // currency units per hour of compute
};

struct PlatformConfig {
  std::string name;
  PlatformType type = PlatformType::Cpu;
  int cores = 0;                     // cpu: worker threads, 0 = every core
  std::string device_match;          // opencl: substring of the device name ("" = first device)
  bool naive = false;                // opencl: copy every input and output, no replica reuse
  std::size_t memory_cap_bytes = 0;  // opencl: 0 = the device's own size
  int host_cores = -1;  // opencl: host cores a kernel holds; -1: the device says (a CPU device's
                        // compute units, as PoCL's; 0 for own hardware); 0: own hardware
  std::string url;      // remote: http(s)://host:port[/path]
  std::string token;    // remote: bearer token
  PowerModel power;
  bool power_configured = false;  // false: the type's default model (forecasts say Default)
  Prices prices;
  // The automatic policies (dynperf, dynen, budget, cheapest) give it only the tasks no other
  // platform can run. A platform found by discovery has no entry: it is a fallback when it
  // computes on the host's cores (an OpenCL CPU device beside `cpu`; make_policy).
  bool fallback = false;
};

// Defaults for a platform the config does not list (opencl1 found by discovery, ...).
PlatformConfig default_platform(std::string name, PlatformType type);

struct PolicyConfig {
  std::string name = "dynperf";  // dynperf | dynen | static | only:<platform> | budget | cheapest
  double j_per_s = 5;            // dynen: joules saved per second of delay accepted
  // CEI_SECOND_THOUGHTS: how many times slower than its forecasts a platform runs before its
  // queued tasks are placed again (0: never)
  double second_thoughts = 2;
  double budget = std::numeric_limits<double>::infinity();   // budget: max cost per task
  double slack_s = std::numeric_limits<double>::infinity();  // cheapest: max delay accepted
  std::map<std::string, std::string> static_map;  // static: "Iface.ce" or "ce" -> platform
  std::map<std::string, int> static_lines;        // each static_map key's line in the file
};

struct FailureDefaults {
  FailurePolicy policy = FailurePolicy::Fail;
  int retries = 0;
  long timeout_ms = 0;  // 0 = none
};

struct ProfileConfig {
  std::string path;              // CEI_PROFILE: loaded at start, saved at exit ("" = none)
  int explore_runs = 1;          // runs granted to each unprofiled (CE version, platform)
  double default_exec_s = 1e-3;  // a prediction with no history anywhere
};

struct Config {
  std::string source = "<embedded>";  // the file it came from
  std::vector<PlatformConfig> platforms;
  bool all_opencl_devices = false;  // embedded default: add opencl0, opencl1, ... as found
  PolicyConfig policy;
  FailureDefaults failure;
  ProfileConfig profile;

  const PlatformConfig* find(std::string_view name) const;
  // The listed platform, or default_platform(name, type) for one found by discovery.
  PlatformConfig platform_or_default(std::string_view name, PlatformType type) const;
  // Whether `name` can be a platform of this config (listed, or discovered under the default).
  bool knows_platform(std::string_view name) const;
  // Whether `name` can be an OpenCL platform of this config: listed as one, or, unlisted, a name
  // discovery gives under the default (opencl0, ...). A node of CEI_REMOTE, the CPU: no.
  bool names_opencl_platform(std::string_view name) const;
  // "unknown platform 'gpu' (platforms: cpu, opencl0, opencl1, ... one per OpenCL device found;
  // did you mean 'cpu'?)": for a name knows_platform() refused.
  std::string unknown_platform(std::string_view name) const;
};

Config parse_config(std::string_view toml_text, const std::string& file_name);
Config load_config(const std::string& path);
Config default_config();
// CEI_PLATFORMS (or the default), then apply_env_overrides.
Config config_from_env();
void apply_env_overrides(Config& cfg);
// config_from_env() read once per process, so that platform factories and the Decision Engine
// see the same launch config. Throws ConfigError from every call if it is wrong.
const Config& launch_config();

// CEI_REMOTE's entries ("name=url,token=T[,key=value...];name2=..."), checked as at launch: a
// ConfigError names what is wrong (a bad URL, a token with control characters, a name of a
// platform of `cfg`, ...). Also for the files of CEI_REMOTE_JOIN's folder (docs/remote.md).
void check_remote_entries(const Config& cfg, std::string_view entries);

// Policy "static": every key of [policy.static] names a CE of the program ("Iface.ce" or "ce"),
// else a ConfigError at its line listing them. `ces`: the program's, as "Iface.ce"; none (a
// program whose CEs are not registered) checks nothing.
void check_static_map(const Config& cfg, std::span<const std::string> ces);

}  // namespace cei::rt
