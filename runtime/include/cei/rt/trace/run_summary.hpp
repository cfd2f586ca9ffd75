// Where the time, energy and money went: one row per CE and platform, the makespan, and the
// energy per platform (of its tasks, idle, and its meter's total).
//
//   fmt::print(stderr, "{}", cei::rt::trace::format_summary(recorder.snapshot()));
//
//   CE                platform  tasks  failed  busy ms  energy J  energy from      cost     moved
//   Matmul::multiply  opencl0       6       0  412.000     9.100  nvml         0.000000  12.0 MiB
//   ...
//   versions: CholeskyCEI::gemm on cpu: chol 54, chol_loops 2
//
//   platform  tasks J  idle J  meter J  energy from
//   opencl0     9.100  52.400   61.500  nvml
//
//   group  where        budget J  ratio  energy J  energy from  accurate  approximate  dropped plan
//   1      main.cpp:40    30.000      -    29.412  rapl                2            6        0
//   approximate
#pragma once

#include <cei/rt/trace/run_record.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
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
  // What the tasks cost: busy_s at the platform's price per hour plus bytes_moved at its price
  // per GB (Platform::prices; 0 where it has none).
  double cost = 0;
  std::size_t bytes_moved = 0;
  // Tasks that ran per implementation (TaskRecord::implementation: a native version's declaring
  // class, "opencl", ...), and whether the CE has several native versions (then the summary
  // says which ran how often).
  std::map<std::string, std::size_t> implementations;
  bool several_versions = false;
};

// Per platform: its tasks' energy and, on a metered platform, the meter's idle energy and total
// for the run (tasks_j + idle_j == meter_j once every report is in).
struct PlatformEnergyRow {
  std::string platform;
  double tasks_j = 0;
  bool metered = false;
  double idle_j = 0, meter_j = 0;  // metered only
  std::string energy_source;       // the meter ("rapl", "nvml"), or as in SummaryRow
};

// Per task group (cei::EnergyBudget, cei::AccuracyRatio): its goal, what its tasks spent (as the
// rows above count it) and at which quality they ran.
struct GroupRow {
  std::uint64_t id = 0;
  std::string where;  // the scope object's "file:line"
  double budget_j = 0;
  bool has_budget = false;
  double accurate_ratio = -1;  // < 0: none
  double energy_j = 0;
  std::string energy_source;  // "nvml", "rapl", "model", a forecast's source, or "mixed"
  std::size_t accurate = 0, approximate = 0, dropped = 0;
  std::string step;  // the furthest step of the budget order the plans took
  bool meets_budget = true;
  // Where energy_j is more than kBudgetTolerance away from the budget: why, in words ("" else).
  std::string off_budget;
};
inline constexpr double kBudgetTolerance = 0.05;

struct Summary {
  std::vector<SummaryRow> rows;           // by CE, then platform
  std::vector<PlatformEnergyRow> energy;  // by platform
  double makespan_s = 0;
  std::string policy;
  // Second thoughts: tasks re-placed, per pair of platforms ("cpu → opencl0"): from a platform
  // behind its forecasts, and from one on time, revisited because a device opened.
  std::map<std::string, std::size_t> replaced, replaced_on_open;
  // Per platform: how many times it was lost, and admitted again (a remote node's health checks).
  std::map<std::string, std::pair<std::size_t, std::size_t>> membership;
  // Platforms that joined during the run (a node of CEI_REMOTE_JOIN), and when (s from the start).
  std::vector<std::pair<std::string, double>> joined;
  // Per link, from and to ("host", or a platform: "node1" -> "node2" for a node's fetch from
  // another): the bytes moved and the transfers that moved them.
  std::map<std::pair<std::string, std::string>, std::pair<std::size_t, std::size_t>> links;
  // Tasks that ran an approximation, and tasks dropped (docs/language.md).
  std::size_t approximate = 0, dropped = 0;
  std::vector<GroupRow> groups;  // in the order they closed
};

Summary summarize(const RunRecord& run);
std::string format_summary(const Summary& s);
inline std::string format_summary(const RunRecord& run) {
  return format_summary(summarize(run));
}

}  // namespace cei::rt::trace
