#include <cei/rt/trace/run_summary.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace cei::rt::trace {
namespace {

std::string human_bytes(std::size_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  return u == 0 ? fmt::format("{} B", b) : fmt::format("{:.1f} {}", v, units[u]);
}

}  // namespace

Summary summarize(const RunRecord& run) {
  std::map<std::pair<std::string, std::string>, SummaryRow> rows;
  // Transfers the platforms reported per task, for tasks whose Timing carries no byte counts.
  std::map<std::uint64_t, std::size_t> transferred;
  for (const auto& x : run.transfers) transferred[x.task] += x.bytes;

  Summary s;
  for (const TaskRecord& t : run.tasks) {
    const std::string platform = t.platform.empty() ? "-" : t.platform;
    SummaryRow& r = rows[{t.qualified_ce(), platform}];
    r.ce = t.qualified_ce();
    r.platform = platform;
    ++r.tasks;
    if (t.failed) ++r.failed;
    if (t.finished) r.busy_s += std::chrono::duration<double>(t.end - t.start).count();

    const Forecast* chosen = t.chosen >= 0 ? &t.forecasts[t.chosen].forecast : nullptr;
    // Once the task ran on another platform than the one chosen, the forecast says nothing.
    const bool chosen_ran = chosen && t.forecasts[t.chosen].platform == t.platform;
    std::string source;
    if (t.timing.energy_j > 0) {
      r.energy_j += t.timing.energy_j;
      source = t.timing.energy_source ? t.timing.energy_source : "measured";
    } else if (chosen_ran) {
      r.energy_j += chosen->energy_j;
      source = source_name(chosen->energy_source);
    }
    if (!source.empty())
      r.energy_source = r.energy_source.empty() || r.energy_source == source ? source : "mixed";
    if (chosen_ran) r.cost += chosen->cost;

    const std::size_t reported = t.timing.bytes_in + t.timing.bytes_out;
    auto it = transferred.find(t.id);
    r.bytes_moved += reported > 0 ? reported : it != transferred.end() ? it->second : 0;
    if (!t.policy.empty()) s.policy = t.policy;
  }
  for (auto& [key, row] : rows) {
    // A char, not "-": GCC 12 at -O3 reports a one-character literal's assignment as an
    // overlapping memcpy (-Wrestrict, a false positive).
    if (row.energy_source.empty()) row.energy_source = '-';
    s.rows.push_back(std::move(row));
  }
  s.makespan_s = run.makespan_s();
  return s;
}

std::string format_summary(const Summary& s) {
  const std::vector<std::string> head = {"CE",       "platform",    "tasks", "failed", "busy ms",
                                         "energy J", "energy from", "cost",  "moved"};
  std::vector<std::vector<std::string>> cells;
  SummaryRow total{"total", "", 0, 0, 0, 0, "", 0, 0};
  auto cells_of = [](const SummaryRow& r) {
    return std::vector<std::string>{r.ce,
                                    r.platform,
                                    fmt::format("{}", r.tasks),
                                    fmt::format("{}", r.failed),
                                    fmt::format("{:.3f}", r.busy_s * 1e3),
                                    fmt::format("{:.3f}", r.energy_j),
                                    r.energy_source,
                                    fmt::format("{:.4f}", r.cost),
                                    human_bytes(r.bytes_moved)};
  };
  for (const SummaryRow& r : s.rows) {
    cells.push_back(cells_of(r));
    total.tasks += r.tasks;
    total.failed += r.failed;
    total.busy_s += r.busy_s;
    total.energy_j += r.energy_j;
    total.cost += r.cost;
    total.bytes_moved += r.bytes_moved;
  }
  cells.push_back(cells_of(total));

  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  // Names and sources read left-aligned; numbers right-aligned so their digits line up.
  auto is_text = [](std::size_t c) { return c == 0 || c == 1 || c == 6; };
  auto line = [&](const std::vector<std::string>& row) {
    std::string l;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) l += "  ";
      l += is_text(c) ? fmt::format("{:<{}}", row[c], width[c])
                      : fmt::format("{:>{}}", row[c], width[c]);
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  std::string out = fmt::format("cei: run summary — policy {}, makespan {:.3f} s\n",
                                s.policy.empty() ? "-" : s.policy, s.makespan_s);
  out += line(head);
  std::size_t rule = 0;
  for (std::size_t w : width) rule += w + 2;
  out += std::string(rule - 2, '-') + "\n";
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) out += line(cells[i]);
  out += std::string(rule - 2, '-') + "\n";
  out += line(cells.back());
  return out;
}

}  // namespace cei::rt::trace
