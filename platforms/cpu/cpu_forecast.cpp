// The CPU platform's side of the Decision Engine: its registration from the launch config, its
// forecasts (profiles, queue, power model or measured watts, prices) and the energy of the tasks
// it ran (RAPL when readable, split by its sampler after the task; else the power model).
#include "cpu_platform.hpp"

#include <cei/rt/decision/energy_report.hpp>
#include <cei/rt/decision/forecast.hpp>
#include <cei/rt/decision/host_cores.hpp>

namespace cei::rt {

namespace {

// A mistake in the launch config is reported by the policy factory, which stops the program;
// until then the platforms come up as the embedded default says.
Config config_or_default() {
  try {
    return launch_config();
  } catch (const ConfigError&) {
    return default_config();
  }
}

const bool registered = register_platform_factory("cpu", [](Runtime& rt) {
  for (const PlatformConfig& p : config_or_default().platforms)
    if (p.type == PlatformType::Cpu) {
      auto cpu = std::make_unique<CpuPlatform>(rt, p);
      const CpuPlatform* raw = cpu.get();
      host_cores().join(
          raw, [raw](const Task& t) { return raw->backlog_core_s(t); },
          static_cast<double>(raw->workers()));
      rt.add_platform(std::move(cpu));
    }
});

// Bytes of the inputs, and of those that live only away from the host (a device, a node).
struct InputBytes {
  double all = 0, away = 0;
};
InputBytes input_bytes(const Task& t) {
  InputBytes b;
  for (const auto& a : t.args()) {
    if (!a.in) continue;
    const double n = static_cast<double>(a.in->bytes());
    b.all += n;
    if (a.in->state() == Version::State::Ready && !a.in->host()) b.away += n;
  }
  return b;
}

}  // namespace

Prediction CpuPlatform::predict_exec(const Task& t, double input_bytes) const {
  Prediction best;
  bool any = false;
  const bool approximate = t.quality() == Quality::Approximate;
  if (const Profiles* profiles = rt_.profiles())
    // The scheduler runs the version of the task's quality predicted fastest here
    // (Scheduler::choose_version): an accurate task is never forecast at an approximation's time.
    // A measured version outranks an unmeasured one's guess, which only a task or two try: the
    // guess (the mean of the others) would make the platform look unmeasured, and explored
    // again and again.
    for (std::size_t v = 0; v < t.ce().nversions; ++v) {
      if (t.ce().versions[v].approximate != approximate) continue;
      const Prediction p = profiles->predict(t.ce(), static_cast<int>(v), name_, input_bytes);
      const bool measured = p.source != Source::Default, best_measured =
                                                           best.source != Source::Default;
      if (!any || measured > best_measured ||
          (measured == best_measured && p.seconds < best.seconds))
        best = p;
      any = true;
    }
  return best;
}

double CpuPlatform::ahead_of(const Task& t) const {
  // A task that unlocks others overtakes the queued leaves (the executor's priority levels): a
  // busy CPU is then no reason to hand it to a slower device.
  // The entries of withdrawn tasks wait in the queues too, but take no time when reached.
  const std::size_t queued = executor_.queued_through(t.priority()) + executor_.running();
  const std::size_t gone = withdrawn_count_.load(std::memory_order_acquire);
  return static_cast<double>(queued > gone ? queued - gone : 0);
}

double CpuPlatform::backlog_core_s(const Task& t) const {
  // Every task ahead holds one core for about as long as this one would.
  return ahead_of(t) * predict_exec(t, input_bytes(t).all).seconds;
}

Forecast CpuPlatform::forecast(const Task& t) const {
  const InputBytes bytes = input_bytes(t);
  // Host copies of device data come back at roughly memory-bus speed; a forecast only needs the
  // order of magnitude to weigh them against the execution.
  constexpr double kFetchBytesPerS = 4e9;
  ForecastInput in{.now_s = rt_.now_s(),
                   .transfer_s = bytes.away / kFetchBytesPerS,
                   .bytes_moved = bytes.away,
                   .exec = predict_exec(t, bytes.all)};
  const Profiles* profiles = rt_.profiles();
  // Tasks ahead of this one, spread over the workers.
  const auto waiting = static_cast<std::size_t>(ahead_of(t));
  in.queue_s = static_cast<double>(waiting / workers()) * in.exec.seconds;
  // Other platforms on the same cores (PoCL) slow the workers down.
  in.min_end_s = host_cores().fluid_end_s(in.now_s, t, in.exec.seconds);
  return compose_forecast(config_, in, profiles ? profiles->measured_watts(name_) : std::nullopt);
}

void CpuPlatform::account_energy(Task::Timing& tm) const {
  if (meter_) {
    tm.energy_j = 0;  // end_run's report brings the figure
    tm.energy_source = to_string(meter_->source());
  } else {
    tm.energy_j = model_energy(config_.power, tm.start, tm.end);
    tm.energy_source = to_string(EnergySource::PowerModel);
  }
}

void CpuPlatform::end_run(MeterSampler::RunId& run, std::uint64_t task, Clock::time_point start,
                          Clock::time_point end) {
  if (!run) return;
  meter_->end(run, start, end, task_energy_report(rt_, *this, task, end - start, meter_->source()));
  run = 0;
}

void CpuPlatform::settle_energy() {
  if (!meter_) return;
  meter_->settle();
  report_platform_energy(*this, *meter_, meter_->totals());
}

}  // namespace cei::rt
