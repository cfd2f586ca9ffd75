#include <cei/rt/decision/policies.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

namespace cei::rt {

namespace {

// Candidates are promised feasible; a platform that says otherwise still loses to any other.
bool usable(const Candidate& c) {
  return c.forecast.feasible;
}

// The best candidate under `better` (a strict order on forecasts), skipping unusable ones when a
// usable one exists. Ties keep the earlier index.
template <typename Better>
std::size_t best_by(std::span<const Candidate> cs, Better better) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < cs.size(); ++i) {
    if (usable(cs[i]) != usable(cs[best])) {
      if (usable(cs[i])) best = i;
      continue;
    }
    if (better(cs[i].forecast, cs[best].forecast)) best = i;
  }
  return best;
}

bool earlier(const Forecast& a, const Forecast& b) {
  return a.end_s < b.end_s;
}

// Whether a and b are worth the same at `rate`: E_a + rate*end_a == E_b + rate*end_b up to
// rounding. Compared as differences, so that the tolerance follows the trade at stake (a few mJ)
// and not the absolute end times (an hour into a run, 5 J/s * 3600 s dwarfs them), plus the
// rounding those absolute times carry.
bool same_worth(const Forecast& a, const Forecast& b, double rate) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double de = a.energy_j - b.energy_j, dt = rate * (a.end_s - b.end_s);
  const double rounding = 8 * eps *
                          (rate * std::max(std::abs(a.end_s), std::abs(b.end_s)) +
                           std::max(std::abs(a.energy_j), std::abs(b.energy_j)));
  return std::abs(de + dt) <= 1e-9 * std::max(std::abs(de), std::abs(dt)) + rounding;
}

std::size_t index_of(std::span<const Candidate> cs, const std::string& platform) {
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (usable(cs[i]) && cs[i].platform->name() == platform) return i;
  return cs.size();
}

}  // namespace

std::size_t DynPerf::choose(const CeInfo&, std::span<const Candidate> cs) {
  return best_by(cs, earlier);
}

std::size_t DynEn::choose(const CeInfo&, std::span<const Candidate> cs) {
  const double rate = rate_;
  return best_by(cs, [rate](const Forecast& a, const Forecast& b) {
    if (!same_worth(a, b, rate)) return (a.energy_j - b.energy_j) + rate * (a.end_s - b.end_s) < 0;
    if (a.energy_j != b.energy_j) return a.energy_j < b.energy_j;
    return a.end_s < b.end_s;
  });
}

std::size_t StaticMap::choose(const CeInfo& ce, std::span<const Candidate> cs) {
  auto it = map_.find(std::string(ce.interface_name ? ce.interface_name : "") + "." + ce.name);
  if (it == map_.end()) it = map_.find(ce.name);
  if (it != map_.end())
    if (std::size_t i = index_of(cs, it->second); i < cs.size()) return i;
  return best_by(cs, earlier);
}

std::size_t OnlyPlatform::choose(const CeInfo&, std::span<const Candidate> cs) {
  if (std::size_t i = index_of(cs, platform_); i < cs.size()) return i;
  return best_by(cs, earlier);
}

std::size_t Budget::choose(const CeInfo&, std::span<const Candidate> cs) {
  const double max_cost = max_cost_;
  return best_by(cs, [max_cost](const Forecast& a, const Forecast& b) {
    const bool ina = a.cost <= max_cost, inb = b.cost <= max_cost;
    if (ina != inb) return ina;
    if (ina) return a.end_s < b.end_s || (a.end_s == b.end_s && a.cost < b.cost);
    return a.cost < b.cost || (a.cost == b.cost && a.end_s < b.end_s);
  });
}

std::size_t Cheapest::choose(const CeInfo&, std::span<const Candidate> cs) {
  const double first_end = cs[best_by(cs, earlier)].forecast.end_s;
  const double deadline = first_end + slack_s_;
  return best_by(cs, [deadline](const Forecast& a, const Forecast& b) {
    const bool ina = a.end_s <= deadline, inb = b.end_s <= deadline;
    if (ina != inb) return ina;
    return a.cost < b.cost || (a.cost == b.cost && a.end_s < b.end_s);
  });
}

std::size_t Exploring::choose(const CeInfo& ce, std::span<const Candidate> cs) {
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (!usable(cs[i]) || cs[i].forecast.time_source != Source::Default) continue;
    const int version = cs[i].platform->capabilities().has(Capabilities::Kernels) ? -1 : 0;
    if (profiles_.claim_exploration(ce, version, cs[i].platform->name())) return i;
  }
  return inner_->choose(ce, cs);
}

std::size_t Fallbacks::choose(const CeInfo& ce, std::span<const Candidate> cs) {
  // The candidates that are no fallback, and where each one sits in cs.
  thread_local std::vector<Candidate> kept;
  thread_local std::vector<std::size_t> at;
  kept.clear();
  at.clear();
  bool usable_kept = false;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (is_fallback_(*cs[i].platform)) continue;
    kept.push_back(cs[i]);
    at.push_back(i);
    usable_kept = usable_kept || usable(cs[i]);
  }
  if (!usable_kept || kept.size() == cs.size()) return inner_->choose(ce, cs);
  return at[inner_->choose(ce, kept)];
}

namespace {

// The policies that decide by forecasts, where make_policy puts Exploring and Fallbacks in front.
bool automatic(std::string_view policy) {
  return policy == "dynperf" || policy == "dynen" || policy == "budget" || policy == "cheapest";
}

// Whether a platform is a fallback under cfg's automatic policy: the listed ones say it
// (`fallback`), and a device found by discovery is one when it computes on the host's cores.
// Null when none can be.
Fallbacks::IsFallback fallbacks_of(const Config& cfg, const HostCores& cores) {
  std::vector<std::pair<std::string, bool>> listed;
  bool any = discovered_host_devices_are_fallbacks(cfg);
  for (const PlatformConfig& p : cfg.platforms) {
    listed.emplace_back(p.name, p.fallback);
    any = any || p.fallback;
  }
  if (!any) return nullptr;
  return [listed = std::move(listed), &cores](const Platform& p) {
    for (const auto& [name, fallback] : listed)
      if (name == p.name()) return fallback;
    return cores.has(&p);
  };
}

}  // namespace

bool discovered_host_devices_are_fallbacks(const Config& cfg) {
  return cfg.all_opencl_devices && automatic(cfg.policy.name);
}

std::unique_ptr<Policy> make_policy(const Config& cfg, ProfileStore* profiles,
                                    const HostCores& cores) {
  const std::string& n = cfg.policy.name;
  if (n == "static") return std::make_unique<StaticMap>(cfg.policy.static_map);
  if (n.starts_with("only:") && n.size() > 5) return std::make_unique<OnlyPlatform>(n.substr(5));
  std::unique_ptr<Policy> p;
  if (n == "dynperf")
    p = std::make_unique<DynPerf>();
  else if (n == "dynen")
    p = std::make_unique<DynEn>(cfg.policy.j_per_s);
  else if (n == "budget")
    p = std::make_unique<Budget>(cfg.policy.budget);
  else if (n == "cheapest")
    p = std::make_unique<Cheapest>(cfg.policy.slack_s);
  else
    throw ConfigError(cfg.source, 0, "policy.name", "unknown policy '" + n + "'");
  if (profiles && cfg.profile.explore_runs > 0)
    p = std::make_unique<Exploring>(std::move(p), *profiles);
  // Outside the exploration: a fallback is not explored while another platform can run the task.
  if (auto is_fallback = fallbacks_of(cfg, cores))
    p = std::make_unique<Fallbacks>(std::move(p), std::move(is_fallback));
  return p;
}

}  // namespace cei::rt
