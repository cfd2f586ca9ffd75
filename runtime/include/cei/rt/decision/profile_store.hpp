// Execution-time history per (CE version, platform), keyed by input size, with a regression for
// sizes never seen, bounded exploration of unprofiled versions, and JSON persistence
// (CEI_PROFILE=profile.json: loaded at start, saved at exit).
//
//   cei::rt::ProfileStore profiles({.explore_runs = 1});
//   profiles.load_if_exists(cfg.profile.path);
//   // Executor, before asking the policy:
//   if (profiles.claim_exploration(ce, version, "opencl0")) { /* run it there, once */ }
//   // platform forecast():  Prediction p = profiles.predict(ce, version, name(), bytes);
//   // after the task:       profiles.record(ce, version, name(), bytes, seconds);
//   profiles.save(cfg.profile.path);
//
// Thread-safe. record() is O(1) and allocates only for a new (CE version, platform) or size: a
// shared lock on the store plus the history's own lock, so records of different histories run in
// parallel. The fit is recomputed lazily (and cached) by the first predict() or models() that
// needs it after a record.
#pragma once

#include <cei/rt/decision/regression.hpp>
#include <cei/rt/policy.hpp>

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <tuple>
#include <vector>

namespace cei::rt {

struct ProfileOptions {
  int explore_runs = 1;          // claim_exploration grants this many runs per unprofiled key
  double default_exec_s = 1e-3;  // predict() when no platform has run the CE yet
};

// Identifies one history: "MatmulCEI.multiply", "matmul" (or "opencl"), "cpu".
struct ProfileKey {
  std::string ce, impl, platform;
  auto operator<=>(const ProfileKey&) const = default;
};

struct SizeStats {
  std::uint64_t runs = 0;
  double mean_s = 0;
  double m2 = 0;  // sum of squared deviations (Welford), for the variance
};

// A snapshot of one history for tools and reports.
struct ProfileModel {
  ProfileKey key;
  std::vector<std::pair<double, SizeStats>> sizes;  // ascending size
  Fit fit;
};

class ProfileStore final : public Profiles {
 public:
  explicit ProfileStore(ProfileOptions opts = {});

  // Measured: the mean of runs at exactly this size; Regression: the fit over other sizes;
  // Default: no history on this platform (the mean of this CE's predictions elsewhere, else
  // default_exec_s).
  Prediction predict(const CeInfo& ce, int version, const std::string& platform,
                     double input_bytes) const override;
  void record(const CeInfo& ce, int version, const std::string& platform, double input_bytes,
              double seconds) override;

  // True at most explore_runs times per (CE version, platform) that has fewer than explore_runs
  // recorded runs: the Executor then sends the task there regardless of the policy, so that an
  // unprofiled version is measured instead of looking free (or prohibitive) forever.
  bool claim_exploration(const CeInfo& ce, int version, const std::string& platform);

  // Measured average power of a platform while it ran tasks (from the energy meters).
  void record_energy(const std::string& platform, double seconds, double joules);
  std::optional<double> measured_watts(const std::string& platform) const;

  std::vector<ProfileModel> models() const;

  nlohmann::json to_json() const;
  void merge_json(const nlohmann::json& j);  // throws std::runtime_error on a malformed file
  void save(const std::string& path) const;
  void load(const std::string& path);
  bool load_if_exists(const std::string& path);  // false when there is no such file

  static std::string ce_key(const CeInfo& ce);                 // "MatmulCEI.multiply"
  static std::string impl_key(const CeInfo& ce, int version);  // "matmul", "opencl"

 private:
  // Guarded by the store's lock for insertion and by `mu` for its contents.
  struct History {
    mutable std::mutex mu;
    std::map<double, SizeStats> sizes;
    mutable Fit fit;
    mutable bool fit_stale = false;  // sizes changed since `fit` was computed
    int claims = 0;
    std::uint64_t total_runs = 0;
    const Fit& current_fit() const;  // under mu
  };
  struct Energy {
    double seconds = 0, joules = 0;
  };
  using Key = std::tuple<std::string_view, std::string_view, std::string_view>;
  struct Less {
    using is_transparent = void;
    static Key view(const ProfileKey& k) { return {k.ce, k.impl, k.platform}; }
    static Key view(const Key& k) { return k; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return view(a) < view(b);
    }
  };
  static void invalidate_fit(History& h);
  double predict_locked(const History& h, double size) const;

  ProfileOptions opts_;
  mutable std::shared_mutex mu_;
  std::map<ProfileKey, History, Less> histories_;
  std::map<std::string, Energy, std::less<>> energy_;
};

}  // namespace cei::rt
