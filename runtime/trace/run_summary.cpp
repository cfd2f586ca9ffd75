#include <cei/rt/trace/run_summary.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

// Adds what task t spent to `joules`, and its source to `source` ("mixed" once they disagree).
void add_energy(const TaskRecord& t, double& joules, std::string& source) {
  const Forecast* chosen = t.chosen >= 0 ? &t.forecasts[t.chosen].forecast : nullptr;
  // Once the task ran on another platform than the one chosen, the forecast says nothing.
  const bool chosen_ran = chosen && t.forecasts[t.chosen].platform == t.platform;
  std::string from;
  // A platform that names the source reported the figure, even 0 J.
  if (t.timing.energy_source || t.timing.energy_j > 0) {
    joules += t.timing.energy_j;
    from = t.timing.energy_source ? t.timing.energy_source : "measured";
  } else if (chosen_ran) {
    joules += chosen->energy_j;
    from = source_name(chosen->energy_source);
  }
  if (!from.empty()) source = source.empty() || source == from ? from : "mixed";
}

// Why a group spent more than kBudgetTolerance away from its budget, from the plans' forecasts:
// a budget out of the plans' reach, or forecasts that missed what the tasks spent.
std::string off_budget(const GroupReport& g, const GroupRow& row) {
  if (!row.has_budget) return "";
  const double off = g.budget_j > 0 ? row.energy_j / g.budget_j - 1 : row.energy_j > 0 ? 1 : 0;
  if (std::abs(off) <= kBudgetTolerance) return "";
  const std::string spent = g.budget_j > 0
                                ? fmt::format("spent {:.0f}% {} the budget: ", std::abs(off) * 100,
                                              off > 0 ? "over" : "under")
                                : fmt::format("spent {:.3f} J of a budget of 0: ", row.energy_j);
  if (off > 0 && g.floor_j > g.budget_j)
    return spent + fmt::format(
                       "the budget is below the least the group could spend by the "
                       "forecasts (every task approximate or dropped) {:.3f} J",
                       g.floor_j);
  std::string why;
  if (off < 0 && g.accurate_j <= g.budget_j) {
    why = fmt::format("the budget is above the accurate plan's forecast {:.3f} J", g.accurate_j);
    // Never binding, or binding for a while: the measurements on the way said it might be.
    if (g.step == "fastest") return spent + why + ": not binding";
    why += "; ";
  }
  if (g.forecast_j <= 0) return spent + why + "no forecast of the tasks' energy";
  const double missed = row.energy_j / g.forecast_j - 1;
  return spent + why +
         fmt::format("the forecasts of the tasks' energy were {:.0f}% {} what they spent",
                     std::abs(missed) * 100, missed > 0 ? "under" : "over");
}

GroupRow group_row(const RunRecord& run, const GroupReport& g) {
  GroupRow row;
  row.id = g.id;
  row.where = g.where;
  row.has_budget = !std::isinf(g.budget_j);
  row.budget_j = row.has_budget ? g.budget_j : 0;
  row.accurate_ratio = g.accurate_ratio;
  row.step = g.step;
  row.meets_budget = g.meets_budget;
  for (const auto& [id, quality] : g.tasks) {
    switch (quality) {
      case Quality::Accurate:
        ++row.accurate;
        break;
      case Quality::Approximate:
        ++row.approximate;
        break;
      case Quality::Dropped:
        ++row.dropped;
        break;
    }
    if (const TaskRecord* t = run.find_task(id)) add_energy(*t, row.energy_j, row.energy_source);
  }
  if (row.energy_source.empty()) row.energy_source = "-";
  row.off_budget = off_budget(g, row);
  return row;
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
    if (t.finished && !t.implementation.empty()) ++r.implementations[t.implementation];
    r.several_versions = r.several_versions || t.native_versions > 1;
    if (t.finished) r.busy_s += std::chrono::duration<double>(t.end - t.start).count();

    add_energy(t, r.energy_j, r.energy_source);

    const std::size_t reported = t.timing.bytes_in + t.timing.bytes_out;
    auto it = transferred.find(t.id);
    r.bytes_moved += reported > 0 ? reported : it != transferred.end() ? it->second : 0;
    if (!t.policy.empty()) s.policy = t.policy;
  }
  std::map<std::string, PlatformEnergyRow> energy;
  for (auto& [key, row] : rows) {
    // What the run cost: the platform's prices for the time its tasks ran and the bytes it moved.
    if (const PlatformRecord* p = run.find_platform(row.platform))
      row.cost = p->prices.per_hour * row.busy_s / 3600 +
                 p->prices.per_gb * static_cast<double>(row.bytes_moved) / 1e9;
    if (row.platform != "-") {
      PlatformEnergyRow& e = energy[row.platform];
      e.platform = row.platform;
      e.tasks_j += row.energy_j;
      if (!row.energy_source.empty())
        e.energy_source = e.energy_source.empty() || e.energy_source == row.energy_source
                              ? row.energy_source
                              : "mixed";
    }
    // A char, not "-" (also below): GCC 12 at -O3 reports a one-character literal's assignment
    // as an overlapping memcpy (-Wrestrict, a false positive).
    if (row.energy_source.empty()) row.energy_source = '-';
    s.rows.push_back(std::move(row));
  }
  // A meter's account is the platform's whole energy: its tasks' share and the idle rest.
  for (const MeterRecord& m : run.meters) {
    PlatformEnergyRow& e = energy[m.platform];
    e.platform = m.platform;
    e.tasks_j = m.tasks_j;
    e.metered = true;
    e.idle_j = m.idle_j;
    e.meter_j = m.total_j;
    e.energy_source = m.source;
  }
  for (auto& [name, e] : energy) {
    if (e.energy_source.empty()) e.energy_source = '-';
    s.energy.push_back(std::move(e));
  }
  for (const ReplacementRecord& r : run.replacements)
    ++(r.lag > 0 ? s.replaced : s.replaced_on_open)[r.from + " → " + r.to];
  for (const MembershipRecord& m : run.memberships) {
    if (m.joined) {
      s.joined.emplace_back(m.platform, run.seconds(m.at));
      continue;
    }
    auto& [lost, readmitted] = s.membership[m.platform];
    ++(m.lost ? lost : readmitted);
  }
  for (const TransferRecord& x : run.transfers) {
    const std::string from = !x.to_device ? x.platform : x.from.empty() ? "host" : x.from;
    auto& [bytes, count] = s.links[{from, x.to_device ? x.platform : "host"}];
    bytes += x.bytes;
    ++count;
  }
  for (const TaskRecord& t : run.tasks) {
    if (t.implementation == "dropped") ++s.dropped;
    if (t.implementation.ends_with(kApproximateSuffix)) ++s.approximate;
  }
  for (const GroupReport& g : run.groups) s.groups.push_back(group_row(run, g));
  s.makespan_s = run.makespan_s();
  return s;
}

namespace {

// Columns as wide as their widest cell; names and sources (the columns in `text`) left-aligned,
// numbers right-aligned so their digits line up.
struct Layout {
  std::vector<std::size_t> width, text;

  Layout(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& cells,
         std::vector<std::size_t> text_columns)
      : width(head.size()), text(std::move(text_columns)) {
    for (std::size_t c = 0; c < head.size(); ++c) {
      width[c] = head[c].size();
      for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string line(const std::vector<std::string>& row) const {
    std::string l;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) l += "  ";
      const bool left = std::find(text.begin(), text.end(), c) != text.end();
      l += left ? fmt::format("{:<{}}", row[c], width[c]) : fmt::format("{:>{}}", row[c], width[c]);
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  }
  std::string rule() const {
    std::size_t n = 0;
    for (std::size_t w : width) n += w + 2;
    return std::string(n - 2, '-') + "\n";
  }
};

std::string format_energy(const std::vector<PlatformEnergyRow>& rows) {
  const std::vector<std::string> head = {"platform", "tasks J", "idle J", "meter J", "energy from"};
  std::vector<std::vector<std::string>> cells;
  for (const PlatformEnergyRow& e : rows)
    cells.push_back({e.platform, fmt::format("{:.3f}", e.tasks_j),
                     e.metered ? fmt::format("{:.3f}", e.idle_j) : "-",
                     e.metered ? fmt::format("{:.3f}", e.meter_j) : "-", e.energy_source});
  const Layout layout(head, cells, {0, 4});
  std::string out = layout.line(head) + layout.rule();
  for (const auto& row : cells) out += layout.line(row);
  return out;
}

std::string format_groups(const std::vector<GroupRow>& rows) {
  const std::vector<std::string> head = {"group",    "where",       "budget J", "ratio",
                                         "energy J", "energy from", "accurate", "approximate",
                                         "dropped",  "plan"};
  std::vector<std::vector<std::string>> cells;
  for (const GroupRow& g : rows)
    cells.push_back(
        {fmt::format("{}", g.id), g.where, g.has_budget ? fmt::format("{:.3f}", g.budget_j) : "-",
         g.accurate_ratio >= 0 ? fmt::format("{:.2f}", g.accurate_ratio) : "-",
         fmt::format("{:.3f}", g.energy_j), g.energy_source, fmt::format("{}", g.accurate),
         fmt::format("{}", g.approximate), fmt::format("{}", g.dropped),
         g.step + (g.meets_budget ? "" : " (over budget: nothing left to give)")});
  const Layout layout(head, cells, {1, 5, 9});
  std::string out = layout.line(head) + layout.rule();
  for (const auto& row : cells) out += layout.line(row);
  for (const GroupRow& g : rows)
    if (!g.off_budget.empty()) out += fmt::format("group {}: {}\n", g.id, g.off_budget);
  return out;
}

}  // namespace

std::string format_summary(const Summary& s) {
  const std::vector<std::string> head = {"CE",       "platform",    "tasks", "failed", "busy ms",
                                         "energy J", "energy from", "cost",  "moved"};
  std::vector<std::vector<std::string>> cells;
  SummaryRow total{"total", "", 0, 0, 0, 0, "", 0, 0, {}, false};
  auto cells_of = [](const SummaryRow& r) {
    return std::vector<std::string>{r.ce,
                                    r.platform,
                                    fmt::format("{}", r.tasks),
                                    fmt::format("{}", r.failed),
                                    fmt::format("{:.3f}", r.busy_s * 1e3),
                                    fmt::format("{:.3f}", r.energy_j),
                                    r.energy_source,
                                    fmt::format("{:.6f}", r.cost),
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

  const Layout layout(head, cells, {0, 1, 6});
  std::string out = fmt::format("cei: run summary — policy {}, makespan {:.3f} s\n",
                                s.policy.empty() ? "-" : s.policy, s.makespan_s);
  out += layout.line(head) + layout.rule();
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) out += layout.line(cells[i]);
  out += layout.rule() + layout.line(cells.back());
  for (const auto& [moves, why] : {std::pair{&s.replaced, "from platforms behind their forecasts"},
                                   std::pair{&s.replaced_on_open, "when a device opened"}}) {
    if (moves->empty()) continue;
    std::size_t n = 0;
    std::string pairs;
    for (const auto& [move, count] : *moves) {
      n += count;
      pairs += fmt::format("{}{}: {}", pairs.empty() ? "" : ", ", move, count);
    }
    out += fmt::format("re-placed: {} queued task(s) {} ({})\n", n, why, pairs);
  }
  for (const auto& [platform, at] : s.joined)
    out += fmt::format("membership: {} joined at {:.1f} s\n", platform, at);
  for (const auto& [platform, counts] : s.membership)
    out += fmt::format("membership: {} lost {} time(s), re-admitted {} time(s)\n", platform,
                       counts.first, counts.second);
  std::string links;
  for (const auto& [link, moved] : s.links)
    links += fmt::format("{}{} → {} {} ({})", links.empty() ? "" : ", ", link.first, link.second,
                         human_bytes(moved.first), moved.second);
  if (!links.empty()) out += "links: " + links + "\n";
  for (const SummaryRow& r : s.rows) {
    if (!r.several_versions && r.implementations.size() < 2) continue;
    std::string ran;
    for (const auto& [version, n] : r.implementations)
      ran += fmt::format("{}{} {}", ran.empty() ? "" : ", ", version, n);
    out += fmt::format("versions: {} on {}: {}\n", r.ce, r.platform, ran.empty() ? "-" : ran);
  }
  if (s.approximate + s.dropped > 0)
    out += fmt::format("quality: {} task(s) ran an approximation, {} dropped\n", s.approximate,
                       s.dropped);
  if (!s.energy.empty()) out += "\n" + format_energy(s.energy);
  if (!s.groups.empty()) out += "\n" + format_groups(s.groups);
  return out;
}

}  // namespace cei::rt::trace
