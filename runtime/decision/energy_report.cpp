#include <cei/rt/decision/energy_report.hpp>

namespace cei::rt {

MeterSampler::Resolved task_energy_report(Runtime& rt, const Platform& p, std::uint64_t task,
                                          Clock::duration ran, EnergySource source) {
  const double seconds = std::chrono::duration<double>(ran).count();
  return [&rt, &p, task, seconds, source](double joules) {
    observe_task_energy(task, p, joules, to_string(source));
    // Only a meter's figure teaches the forecasts a platform's real power.
    if (Profiles* profiles = rt.profiles()) profiles->record_energy(p.name(), seconds, joules);
  };
}

void report_platform_energy(const Platform& p, const MeterSampler& sampler,
                            const EnergyTotals& totals) {
  observe_platform_energy(p, {.tasks_j = totals.tasks_j,
                              .idle_j = totals.idle_j,
                              .pending_j = totals.pending_j,
                              .total_j = totals.total_j,
                              .seconds = totals.seconds,
                              .source = to_string(sampler.source())});
}

}  // namespace cei::rt
