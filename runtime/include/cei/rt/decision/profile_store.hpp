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
// parallel. Once a history holds kEagerRuns runs, a thread gathers its next runs of the same
// history and size (at most kGatherRuns, for at most kGatherAge) and adds them under one lock:
// predict() and claim_exploration() may then miss a few of a thread's latest runs of a
// well-measured history; save(), models() and to_json() see every run recorded before them. The
// fit is recomputed lazily (and cached) by the first predict() or models() that needs it after a
// record.
#pragma once

#include <cei/rt/decision/regression.hpp>
#include <cei/rt/policy.hpp>

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <chrono>
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
  ~ProfileStore() override;
  ProfileStore(const ProfileStore&) = delete;
  ProfileStore& operator=(const ProfileStore&) = delete;

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
  void record_energy(const std::string& platform, double seconds, double joules) override;
  std::optional<double> measured_watts(const std::string& platform) const override;

  std::vector<ProfileModel> models() const;

  nlohmann::json to_json() const;
  // Adds a cei-profile document's runs. An entry out of range (runs not an integer from 1 to
  // kMaxRuns, a mean, m2, size or energy negative, non-finite or past its bound, a key not a
  // string) is dropped with a warning on stderr naming `source` and the entry; a document that
  // is not a cei-profile version 1 object throws std::runtime_error.
  void merge_json(const nlohmann::json& j, const std::string& source = "profile");
  // Adds this store's records since it was made or last saved to what the file holds now, under
  // an flock on `path`.lock shared with every run that saves there, and replaces the file
  // atomically (temporary sibling, fsync, rename): runs sharing a profile keep each other's
  // updates. Records wait while it runs. Throws std::runtime_error (the file is left as it was).
  void save(const std::string& path);
  // Throws std::runtime_error naming the file when it is not a regular file of at most
  // kMaxFileBytes holding a cei-profile JSON document.
  void load(const std::string& path);
  bool load_if_exists(const std::string& path);  // false when there is no such file

  // Bounds of what a profile may hold: far past any real run, and small enough that merging
  // two profiles stays finite.
  static constexpr std::uint64_t kMaxRuns = std::uint64_t{1} << 53;
  static constexpr double kMaxMeanS = 1e9;  // seconds (31 years)
  static constexpr double kMaxM2 = 1e36;
  static constexpr double kMaxBytes = 1e18;
  static constexpr double kMaxEnergy = 1e18;  // seconds or joules summed
  static constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
  // Runs of a history added one by one before a thread may gather them (the first forecasts and
  // the explorations need each run at once), and the bounds of what a thread gathers.
  static constexpr std::uint64_t kEagerRuns = 64;
  static constexpr std::uint64_t kGatherRuns = 32;
  static constexpr std::chrono::microseconds kGatherAge{500};

  static std::string ce_key(const CeInfo& ce);                 // "MatmulCEI.multiply"
  static std::string impl_key(const CeInfo& ce, int version);  // "matmul", "opencl"

 private:
  // Guarded by the store's lock for insertion and by `mu` for its contents.
  struct History {
    mutable std::mutex mu;
    std::map<double, SizeStats> sizes;
    std::map<double, SizeStats> fresh;  // the runs recorded since the last save (save() adds them)
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
  struct Gathered;  // a thread's runs of one history not added yet (profile_store.cpp)
  struct Threads;   // every thread's Gathered (profile_store.cpp)
  static Threads& threads();
  static Gathered& gathered();     // the calling thread's
  void add_gathered(Gathered& g);  // under g's lock: adds its runs to their history, empties it
  void add_all_gathered() const;   // every thread's runs of this store, added
  static void invalidate_fit(History& h);
  static void add_run(SizeStats& s, double seconds);
  static void combine(SizeStats& s, const SizeStats& add);
  nlohmann::json json_of(bool fresh) const;  // under mu_; fresh: only what save() must add
  double predict_locked(const History& h, double size) const;

  ProfileOptions opts_;
  std::uint64_t id_;  // unique per store in this process: record()'s per-thread cache is per store
  std::atomic<bool> recorded_{false};  // some thread has gathered runs of this store
  mutable std::shared_mutex mu_;
  // Mutable: the runs that threads gathered belong to it already (add_all_gathered()).
  mutable std::map<ProfileKey, History, Less> histories_;
  std::map<std::string, Energy, std::less<>> energy_;
  std::map<std::string, Energy, std::less<>> fresh_energy_;  // since the last save
};

}  // namespace cei::rt
