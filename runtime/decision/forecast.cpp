#include <cei/rt/decision/forecast.hpp>

#include <algorithm>

namespace cei::rt {

double cost_of(const Prices& prices, double bytes_moved, double compute_s) {
  return prices.per_gb * bytes_moved / 1e9 + prices.per_hour * compute_s / 3600.0;
}

Forecast compose_forecast(const PlatformConfig& platform, const ForecastInput& in,
                          std::optional<double> measured_watts) {
  Forecast f;
  f.exec_s = in.exec.seconds;
  f.transfer_s = in.transfer_s;
  f.end_s = std::max(in.now_s + in.queue_s + in.transfer_s + in.exec.seconds, in.min_end_s);
  f.time_source = in.exec.source;
  // Power measured by a meter is as good as the time it multiplies; a modelled power is a Default.
  f.energy_j = measured_watts.value_or(platform.power.active_w) * in.exec.seconds;
  f.energy_source = measured_watts ? in.exec.source : Source::Default;
  f.cost = cost_of(platform.prices, in.bytes_moved, in.exec.seconds);
  // Prices are exact; only a compute price inherits the uncertainty of the predicted time.
  f.cost_source = platform.prices.per_hour > 0 ? in.exec.source : Source::Measured;
  return f;
}

}  // namespace cei::rt
