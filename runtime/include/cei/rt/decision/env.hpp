// The launch environment variables, range-checked where they are read: a wrong value is an
// EnvError naming the variable and what it accepts, "CEI_CPU_CORES: expected an integer from 0 to
// 1024, got '100000'". The runtime checks every one when it starts (config_from_env) and stops the
// program with status 2 on the first mistake; the platforms read theirs with the same functions.
// Header-only, so that the platform libraries that read a variable need no part of the runtime.
//
//   if (auto n = cei::rt::env_integer("CEI_OPENCL_QUEUES", 0, 64)) queues = *n;
//
// Thread-safe as std::getenv is: while no thread changes the environment.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cei::rt {

class EnvError : public std::invalid_argument {
 public:
  EnvError(std::string name, const std::string& message)
      : std::invalid_argument(name + ": " + message), name_(std::move(name)) {}
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

namespace env_detail {

inline const char* value(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

[[noreturn]] inline void refuse(const char* name, const std::string& expected, const char* got) {
  throw EnvError(name, "expected " + expected + ", got '" + got + "'");
}

// The whole text as an unsigned decimal, or nullopt (signs, spaces, overflow: not a count).
inline std::optional<std::uint64_t> digits(std::string_view s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

}  // namespace env_detail

// An integer from min to max.
inline std::optional<std::int64_t> env_integer(const char* name, std::int64_t min,
                                               std::int64_t max) {
  const char* v = env_detail::value(name);
  if (!v) return std::nullopt;
  const std::string_view s = v;
  const bool negative = s.starts_with('-');
  auto magnitude = env_detail::digits(negative ? s.substr(1) : s);
  const std::string range = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (!magnitude ||
      *magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    env_detail::refuse(name, range, v);
  const std::int64_t n =
      negative ? -static_cast<std::int64_t>(*magnitude) : static_cast<std::int64_t>(*magnitude);
  if (n < min || n > max) env_detail::refuse(name, range, v);
  return n;
}

// A finite number from min to max.
inline std::optional<double> env_number(const char* name, double min, double max) {
  const char* v = env_detail::value(name);
  if (!v) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(v, &end);
  if (end == v || *end != '\0' || errno == ERANGE || !std::isfinite(x) || x < min || x > max) {
    char range[96];
    std::snprintf(range, sizeof range, "a number from %g to %g", min, max);
    env_detail::refuse(name, range, v);
  }
  return x;
}

// A whole number of bytes with an optional K, M, G or T suffix (powers of 1024), from min to max.
inline std::optional<std::uint64_t> env_bytes(const char* name, std::uint64_t min,
                                              std::uint64_t max) {
  const char* v = env_detail::value(name);
  if (!v) return std::nullopt;
  std::string_view s = v;
  int shift = 0;
  switch (s.back()) {
    case 'k':
    case 'K':
      shift = 10;
      break;
    case 'm':
    case 'M':
      shift = 20;
      break;
    case 'g':
    case 'G':
      shift = 30;
      break;
    case 't':
    case 'T':
      shift = 40;
      break;
    default:
      break;
  }
  if (shift) s.remove_suffix(1);
  auto n = env_detail::digits(s);
  const std::string range = "a size from " + std::to_string(min) + " to " + std::to_string(max) +
                            " bytes (a whole number, K/M/G/T suffixes)";
  if (!n || *n > (max >> shift) || (*n << shift) < min) env_detail::refuse(name, range, v);
  return *n << shift;
}

// 1/on/true/yes or 0/off/false/no.
inline std::optional<bool> env_flag(const char* name) {
  const char* v = env_detail::value(name);
  if (!v) return std::nullopt;
  const std::string_view s = v;
  if (s == "1" || s == "on" || s == "true" || s == "yes") return true;
  if (s == "0" || s == "off" || s == "false" || s == "no") return false;
  env_detail::refuse(name, "1, on, true, yes, 0, off, false or no", v);
}

// What the OpenCL platforms read (platforms/opencl, Options::from_env), checked once at launch.
struct OpenCLEnv {
  std::optional<bool> naive, in_order, pinned;
  // CEI_OPENCL_CHECK_RESULTS=1: kernels' output buffers filled with a pattern and read back to
  // report elements never written (docs/opencl.md, "Checking results").
  std::optional<bool> check_results;
  std::optional<std::uint64_t> mem_cap;  // bytes
  std::optional<std::int64_t> queues, max_inflight;
  // CEI_OPENCL_OPEN=first: the devices open before the first task, kernels build on the thread
  // that first needs them; background (the default): docs/opencl.md, "Opening the devices".
  std::optional<bool> open_first;
};

inline OpenCLEnv opencl_env() {
  OpenCLEnv e;
  e.naive = env_flag("CEI_OPENCL_NAIVE");
  e.in_order = env_flag("CEI_OPENCL_IN_ORDER");
  e.pinned = env_flag("CEI_OPENCL_PINNED");
  e.check_results = env_flag("CEI_OPENCL_CHECK_RESULTS");
  // From 1 MiB: below it not even one image of an example fits, and every task would fail.
  e.mem_cap = env_bytes("CEI_OPENCL_MEM_CAP", std::uint64_t{1} << 20, std::uint64_t{1} << 50);
  e.queues = env_integer("CEI_OPENCL_QUEUES", 0, 64);
  e.max_inflight = env_integer("CEI_OPENCL_MAX_INFLIGHT", 0, 4096);
  if (const char* v = env_detail::value("CEI_OPENCL_OPEN")) {
    const std::string_view s = v;
    if (s != "first" && s != "background")
      env_detail::refuse("CEI_OPENCL_OPEN", "first or background", v);
    e.open_first = s == "first";
  }
  return e;
}

}  // namespace cei::rt
