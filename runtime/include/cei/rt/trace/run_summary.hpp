// Where the time, energy and money went: one row per CE and platform, and the makespan.
//
//   fmt::print(stderr, "{}", cei::rt::trace::format_summary(recorder.snapshot()));
//
//   CE                   platform  tasks  failed  busy ms  energy J  energy from    cost     moved
//   MatmulCEI::multiply  opencl0       6       0  412.000     9.100  measured     0.0000  12.0 MiB
#pragma once

#include <cei/rt/trace/run_record.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace cei::rt::trace {

struct SummaryRow {
  std::string ce;        // "MatmulCEI::multiply"
  std::string platform;  // where the tasks ran (the chosen platform for tasks that never started)
  std::size_t tasks = 0, failed = 0;
  double busy_s = 0;
  double energy_j = 0;
  // "measured" (the platform reported it), the forecast's source ("regression", "default"), or
  // "mixed" when the row's tasks disagree.
  std::string energy_source;
  double cost = 0;  // as forecast at decision time: platforms report no cost afterwards
  std::size_t bytes_moved = 0;
};

struct Summary {
  std::vector<SummaryRow> rows;  // by CE, then platform
  double makespan_s = 0;
  std::string policy;
};

Summary summarize(const RunRecord& run);
std::string format_summary(const Summary& s);
inline std::string format_summary(const RunRecord& run) {
  return format_summary(summarize(run));
}

}  // namespace cei::rt::trace
