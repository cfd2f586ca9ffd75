// Composes a platform's Forecast from what it knows (queue, transfers) and what the Decision
// Engine knows (predicted execution time, power, prices). Platforms call it from forecast():
//
//   cei::rt::ForecastInput in{.now_s = now, .queue_s = wait, .transfer_s = tx,
//                             .bytes_moved = missing_bytes,
//                             .exec = profiles.predict(t.ce(), version, name(), input_bytes)};
//   return cei::rt::compose_forecast(cfg_platform, in, profiles.measured_watts(name()));
//
// end = now + queue + transfers + execution, or min_end_s if later; energy = watts * execution
// (watts measured by the meters where known, else the power model's active_w); cost = price_per_gb
// * GB moved + price_per_hour * execution hours.
#pragma once

#include <cei/rt/decision/config.hpp>
#include <cei/rt/policy.hpp>

#include <optional>

namespace cei::rt {

struct ForecastInput {
  double now_s = 0;        // seconds since the runtime started
  double queue_s = 0;      // until the platform can start it
  double transfer_s = 0;   // inputs it lacks
  double bytes_moved = 0;  // to and from the platform (inputs it lacks + outputs sent back)
  Prediction exec;         // from Profiles::predict
  double min_end_s = 0;    // a bound from outside the platform's queue (HostCores::fluid_end_s)
};

Forecast compose_forecast(const PlatformConfig& platform, const ForecastInput& in,
                          std::optional<double> measured_watts = std::nullopt);

// The monetary cost alone: transfers and compute time at the platform's prices.
double cost_of(const Prices& prices, double bytes_moved, double compute_s);

}  // namespace cei::rt
