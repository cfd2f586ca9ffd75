// The policies a user picks at launch (CEI_POLICY or [policy] name in the config); rules in
// docs/policies.md. Each one chooses among the candidates the Executor gathered (all feasible):
//   dynperf          earliest forecast end
//   dynen            lowest energy + rate * end (rate = CEI_DYNEN_J_PER_S, J per s of delay)
//   static           the config's CE -> platform map; CEs it does not name go by dynperf
//   only:<platform>  that platform whenever it is a candidate; dynperf otherwise
//   budget           earliest end among those costing <= budget; none: the cheapest
//   cheapest         cheapest among those ending <= slack_s after the earliest end
// Ties go to the earlier end, then to the lower candidate index. Unprofiled platforms are explored
// a bounded number of times first (Exploring, below), and fallback platforms take only the tasks
// no other platform can run (Fallbacks, below).
//
//   auto policy = cei::rt::make_policy(cei::rt::config_from_env());
//   std::size_t i = policy->choose(task.ce(), candidates);
#pragma once

#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/policy.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace cei::rt {

class DynPerf final : public Policy {
 public:
  const char* name() const override { return "dynperf"; }
  bool sees_graph() const override { return true; }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;
};

// Moving from the earliest-end candidate b to a later c is worth it when the energy saved pays
// for the delay: E_b - E_c >= rate * (end_c - end_b). Picking the lowest E + rate*end applies
// that test to every pair at once; at equality (up to rounding: within 1e-9 of the trade's own
// size) the lower energy wins, so "at least rate J per s" accepts the boundary.
class DynEn final : public Policy {
 public:
  explicit DynEn(double j_per_s) : rate_(j_per_s) {}
  const char* name() const override { return "dynen"; }
  bool sees_graph() const override { return true; }
  double rate() const { return rate_; }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;

 private:
  double rate_;
};

class StaticMap final : public Policy {
 public:
  // Keys: "Interface.ce" (preferred when both match) or the bare CE name.
  explicit StaticMap(std::map<std::string, std::string> map) : map_(std::move(map)) {}
  const char* name() const override { return "static"; }
  bool by_forecasts() const override { return false; }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;

 private:
  std::map<std::string, std::string> map_;
};

class OnlyPlatform final : public Policy {
 public:
  explicit OnlyPlatform(std::string platform)
      : platform_(std::move(platform)), name_("only:" + platform_) {}
  const char* name() const override { return name_.c_str(); }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;
  std::string_view sole_platform() const override { return platform_; }
  bool by_forecasts() const override { return false; }

 private:
  std::string platform_, name_;
};

class Budget final : public Policy {
 public:
  explicit Budget(double max_cost) : max_cost_(max_cost) {}
  const char* name() const override { return "budget"; }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;

 private:
  double max_cost_;
};

class Cheapest final : public Policy {
 public:
  explicit Cheapest(double slack_s) : slack_s_(slack_s) {}
  const char* name() const override { return "cheapest"; }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;

 private:
  double slack_s_;
};

// Bounded exploration in front of a forecast-driven policy: a candidate whose time forecast is
// Default (its platform has never run this CE) takes the task while the profiles grant
// claim_exploration for it; otherwise `inner` decides. The version claimed is the one the
// platform kind runs: -1 (the OpenCL implementation) on "opencl", 0 elsewhere.
class Exploring final : public Policy {
 public:
  Exploring(std::unique_ptr<Policy> inner, ProfileStore& profiles)
      : inner_(std::move(inner)), profiles_(profiles) {}
  const char* name() const override { return inner_->name(); }
  bool sees_graph() const override { return inner_->sees_graph(); }
  bool by_forecasts() const override { return inner_->by_forecasts(); }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;

 private:
  std::unique_ptr<Policy> inner_;
  ProfileStore& profiles_;
};

// In front of an automatic policy (and of its exploration): a fallback platform is left out of
// the candidates while a usable one that is no fallback remains, so it takes only the tasks no
// other platform can run. An OpenCL CPU device (PoCL) adds no compute to a host whose cores the
// `cpu` platform already uses, only contention: DynPerf sent it potrf/trsm/syrk tiles of a
// Cholesky when the workers were busy (10-25x slower there) and its kernels took the cores from
// the workers (0.76-0.90x the speed of a CPU-only run on 2 cores).
class Fallbacks final : public Policy {
 public:
  using IsFallback = std::function<bool(const Platform&)>;
  Fallbacks(std::unique_ptr<Policy> inner, IsFallback is_fallback)
      : inner_(std::move(inner)), is_fallback_(std::move(is_fallback)) {}
  const char* name() const override { return inner_->name(); }
  bool sees_graph() const override { return inner_->sees_graph(); }
  bool by_forecasts() const override { return inner_->by_forecasts(); }
  std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) override;
  Policy& inner() { return *inner_; }

 private:
  std::unique_ptr<Policy> inner_;
  IsFallback is_fallback_;
};

// Whether cfg's policy leaves the devices found by discovery that compute on the host's cores to
// the tasks no other platform can run (Fallbacks): the embedded default's discovery under dynperf,
// dynen, budget or cheapest. Such a device need not open before such a task comes.
bool discovered_host_devices_are_fallbacks(const Config& cfg);

// From cfg.policy (after the environment overrides); throws ConfigError for an unknown name.
// With profiles (and profile.explore_runs > 0), the forecast-driven policies (dynperf, dynen,
// budget, cheapest) explore first; static and only:<p> never do, they are the user's orders.
// The forecast-driven ones leave the fallback platforms to the tasks only they can run: those the
// config lists with `fallback = true` and, with the embedded default's discovery, the devices
// that compute on the host's cores (members of `cores` other than the listed `cpu`).
std::unique_ptr<Policy> make_policy(const Config& cfg, ProfileStore* profiles = nullptr,
                                    const HostCores& cores = host_cores());

}  // namespace cei::rt
