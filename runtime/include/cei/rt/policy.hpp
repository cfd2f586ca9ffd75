// The Decision Engine's seam: the Executor gathers a forecast from every platform that can run
// a task and a Policy picks one. Policies know nothing of OpenCL or HTTP.
//
//   auto policy = cei::rt::make_policy(config);      // dynperf, dynen, static, only:<p>, ...
//   std::size_t i = policy->choose(task.ce(), candidates);
#pragma once

#include <cei/rt/platform.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cei::rt {

struct Candidate {
  Platform* platform;
  Forecast forecast;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual const char* name() const = 0;
  // Index into candidates (all feasible, never empty) of the platform that runs the task.
  virtual std::size_t choose(const CeInfo& ce, std::span<const Candidate> candidates) = 0;
  // The platform this policy sends every task it can run to (only:<platform>), or "": while it is
  // still opening, tasks wait for it instead of going elsewhere.
  virtual std::string_view sole_platform() const { return {}; }
  // Whether the policy decides by forecasts that the task graph improves: the runtime then ranks
  // tasks by their known dependants (Task::priority) and, where several platforms can run a task,
  // places it once its inputs are ready, when the forecasts see the queues it will meet.
  // Thread-safe (a constant of the policy).
  virtual bool sees_graph() const { return false; }
  // Whether the choice follows the forecasts: a task is then not placed by a guess while the
  // measurement that replaces it is under way (ExplorationGate). The user's orders (static,
  // only:<platform>) do not: holding their tasks back only reorders them. Thread-safe (a constant).
  virtual bool by_forecasts() const { return true; }
  // The version task t runs (a budget's plan), asked once before its first placement, with
  // t.significance() known; nullopt (the default): the significance rule, Accurate unless the
  // significance is 0 (docs/language.md). An answer no platform can serve (Approximate for a CE
  // without an approximation, Dropped for one that is not droppable or that no CPU can take)
  // runs Accurate. Called from any thread that submits or readies tasks.
  virtual std::optional<Quality> quality(const Task& t) {
    (void)t;
    return std::nullopt;
  }
};

// Forecast inputs a platform cannot know alone: execution-time history per (CE version,
// platform) keyed by input size, with a regression for unseen sizes.
struct Prediction {
  double seconds = 0;
  Source source = Source::Default;
};
class Profiles {
 public:
  virtual ~Profiles() = default;
  // `version` is the native version index, or -1 for the OpenCL implementation.
  virtual Prediction predict(const CeInfo& ce, int version, const std::string& platform,
                             double input_bytes) const = 0;
  virtual void record(const CeInfo& ce, int version, const std::string& platform,
                      double input_bytes, double seconds) = 0;
  // A meter's figure for a task that ran `seconds` on `platform`: what teaches forecasts the
  // platform's real power. Profiles that keep no energy ignore it.
  virtual void record_energy(const std::string& platform, double seconds, double joules) {
    (void)platform, (void)seconds, (void)joules;
  }
  // The platform's average power while it ran tasks, as its meters measured it; none without
  // meter figures (forecasts then use the launch config's power model).
  virtual std::optional<double> measured_watts(const std::string& platform) const {
    (void)platform;
    return std::nullopt;
  }
};

}  // namespace cei::rt
