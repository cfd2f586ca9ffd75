// Where a metered platform's figures go (cei_runtime only): a task's final joules to the observers
// (trace, run summary) and to the profiles (the platform's measured watts, which the forecasts
// use); the platform's account to the observers.
//
//   auto run = sampler->begin();
//   ... the task runs ...
//   sampler->end(run, start, end, task_energy_report(rt, platform, task.id(), end - start,
//                                                    sampler->source()));
//   report_platform_energy(platform, *sampler, sampler->finish());   // at shutdown
#pragma once

#include <cei/rt/decision/energy.hpp>
#include <cei/rt/runtime.hpp>

#include <cstdint>

namespace cei::rt {

// The callback for MeterSampler::end. rt and p must outlive the sampler.
MeterSampler::Resolved task_energy_report(Runtime& rt, const Platform& p, std::uint64_t task,
                                          Clock::duration ran, EnergySource source);
void report_platform_energy(const Platform& p, const MeterSampler& sampler,
                            const EnergyTotals& totals);

}  // namespace cei::rt
