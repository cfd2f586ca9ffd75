// The platform config (TOML): only ConfigError may come out, in the "file:line: key: message" form,
// and an accepted config must hold what its types promise: counts that are not negative and sizes
// that are the megabytes asked for, not a wrapped-around remainder.
#include <cei/rt/decision/config.hpp>

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

// The memory_mb that the text asked for platform `name`, read again with toml++ itself.
std::int64_t memory_mb(std::string_view text, const std::string& name) {
  auto doc = toml::parse(text);
  return doc["platforms"][name]["memory_mb"].value_or(std::int64_t{0});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  cei::rt::Config cfg;
  try {
    cfg = cei::rt::parse_config(text, "fuzz.toml");
  } catch (const cei::rt::ConfigError& e) {
    FUZZ_CHECK(std::string_view(e.what()).starts_with("fuzz.toml:"),
               "message does not name the file");
    FUZZ_CHECK(e.line() >= 0, "negative line");
    return 0;
  }
  FUZZ_CHECK(!cfg.platforms.empty(), "a config without platforms");
  FUZZ_CHECK(cfg.failure.retries >= 0, "negative failure.retries");
  FUZZ_CHECK(cfg.failure.timeout_ms >= 0, "negative failure.timeout_ms");
  FUZZ_CHECK(cfg.profile.explore_runs >= 0, "negative profile.explore_runs");
  FUZZ_CHECK(cfg.profile.default_exec_s >= 0, "negative profile.default_exec_s");
  FUZZ_CHECK(cfg.policy.j_per_s >= 0 && cfg.policy.budget >= 0 && cfg.policy.slack_s >= 0,
             "negative policy parameter");
  for (const auto& [ce, platform] : cfg.policy.static_map)
    FUZZ_CHECK(cfg.knows_platform(platform), "static map names an unknown platform");
  for (const auto& p : cfg.platforms) {
    FUZZ_CHECK(cfg.find(p.name) == &p, "platform names not unique");
    FUZZ_CHECK(p.cores >= 0, "negative cores");
    FUZZ_CHECK(p.power.active_w >= 0 && p.power.idle_w >= 0, "negative power");
    FUZZ_CHECK(p.prices.per_gb >= 0 && p.prices.per_hour >= 0, "negative price");
    if (p.type == cei::rt::PlatformType::Remote)
      FUZZ_CHECK(!p.url.empty() && !p.token.empty(), "remote platform without url or token");
    if (p.type != cei::rt::PlatformType::OpenCL) continue;
    if (auto mb = static_cast<std::uint64_t>(memory_mb(text, p.name)); mb != 0) {
      FUZZ_CHECK(p.memory_cap_bytes >> 20 == mb && p.memory_cap_bytes % (1u << 20) == 0,
                 "memory_mb wrapped around");
    }
  }
  return 0;
}
