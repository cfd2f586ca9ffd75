#include "decision_log.hpp"

#include <cei/rt/trace/log.hpp>
#include <cei/rt/trace/run_record.hpp>

#include <fmt/format.h>

namespace cei::rt::trace {

void DecisionLog::task_submitted(const Task& t, std::span<const Dependency> deps,
                                 std::span<const Candidate> candidates, std::size_t chosen,
                                 const char* policy) {
  if (!log().should_log(spdlog::level::debug)) return;
  std::string options;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Forecast& f = candidates[i].forecast;
    options += fmt::format("{}{}{} end {:.4f}s ({}) {:.3f}J {:.4f}$", i ? ", " : "",
                           i == chosen ? "*" : "", candidates[i].platform->name(), f.end_s,
                           source_name(f.time_source), f.energy_j, f.cost);
  }
  std::string after;
  for (const Dependency& d : deps) after += fmt::format(" t{}:{}", d.producer_task, d.version);
  log().debug("task {} {}::{} -> {} by {} [{}]{}{}", t.id(), t.ce().interface_name, t.ce().name,
              chosen < candidates.size() ? candidates[chosen].platform->name() : "?",
              policy ? policy : "?", options, deps.empty() ? "" : "; after", after);
}

void DecisionLog::task_started(const Task& t, const Platform& p, int lane) {
  log().trace("task {} started on {} lane {}", t.id(), p.name(), lane);
}

void DecisionLog::task_finished(const Task& t, const Platform& p, int, bool failed) {
  if (failed)
    log().warn("task {} {}::{} failed on {}", t.id(), t.ce().interface_name, t.ce().name, p.name());
  else
    log().trace("task {} finished on {}", t.id(), p.name());
}

void DecisionLog::transfer(const TransferEvent& e) {
  log().trace("{} {} bytes of {} {} {}", e.to_device ? "sent" : "fetched", e.bytes, e.version,
              e.to_device ? "to" : "from", e.platform->name());
}

}  // namespace cei::rt::trace
