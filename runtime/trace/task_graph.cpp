#include <cei/rt/trace/task_graph.hpp>

#include "palette.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

namespace cei::rt::trace {
namespace {

// Each CE its own color, in the order the run met them: a box says what ran (its platform is in
// its label); 28 boxes of one platform's color said nothing.
std::map<std::string, std::size_t> ce_colors(const RunRecord& run) {
  std::map<std::string, std::size_t> colors;
  for (const TaskRecord& t : run.tasks) colors.emplace(t.qualified_ce(), colors.size());
  return colors;
}

// A data name is the program's text (`m["key"] v1`): quoted for a DOT string.
std::string dot_quoted(const std::string& text) {
  std::string q;
  for (char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q;
}

// The runtime's own names ("d3v2", "r1v1") already tell values apart.
bool generated_name(const std::string& name) {
  const auto v = name.find('v');
  const auto digits = [&](std::size_t from, std::size_t to) {
    return to > from && name.find_first_not_of("0123456789", from) >= to;
  };
  return (name[0] == 'd' || name[0] == 'r') && v != std::string::npos && digits(1, v) &&
         digits(v + 1, name.size());
}

// "labels[c] v1" names every chunk's value alike: the datum tells them apart.
std::string value_label(const std::string& name, std::uint64_t datum) {
  if (datum == 0 || name.empty() || generated_name(name)) return dot_quoted(name);
  return fmt::format("{} (d{})", dot_quoted(name), datum);
}

// The datum of t's dependency `k`: deps and reads both follow the argument order, so the n-th
// dependency named N is the n-th read named N.
std::uint64_t datum_read(const TaskRecord& t, std::size_t k) {
  const std::string& name = t.deps[k].version;
  std::size_t n = 0;
  for (std::size_t j = 0; j < k; ++j) n += t.deps[j].version == name ? 1 : 0;
  for (const DataUse& u : t.data)
    if (u.dir == Dir::In && u.version == name && n-- == 0) return u.datum;
  return 0;
}

bool read_from_task(const TaskRecord& t, const std::string& version) {
  for (const Dependency& d : t.deps)
    if (d.producer_task != 0 && d.version == version) return true;
  return false;
}

// A value a task produced, that the program read and wrote back, reaches a later task through
// the host: drawn dashed from the task that last produced that datum, so that iterations joined
// by the host do not look independent.
void write_host_edges(const RunRecord& run, std::ostream& out) {
  std::map<std::uint64_t, std::uint64_t> last_writer;  // datum -> task
  std::set<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>> drawn;
  for (const TaskRecord& t : run.tasks) {
    for (const DataUse& u : t.data) {
      if (u.dir != Dir::In || u.datum == 0 || read_from_task(t, u.version)) continue;
      const auto w = last_writer.find(u.datum);
      if (w == last_writer.end() || w->second == t.id ||
          !drawn.emplace(w->second, t.id, u.datum).second)
        continue;
      out << fmt::format("  t{} -> t{} [label=\"{}, through the host\", style=dashed];\n",
                         w->second, t.id, value_label(u.version, u.datum));
    }
    for (const DataUse& u : t.data)
      if (u.dir == Dir::Out && u.datum != 0) last_writer[u.datum] = t.id;
  }
}

}  // namespace

void write_dot(const RunRecord& run, std::ostream& out) {
  out << "digraph cei {\n"
         "  rankdir=TB;\n"
         "  node [shape=box, style=\"rounded,filled\", fontname=\"sans-serif\"];\n"
         "  edge [fontname=\"sans-serif\", fontsize=10];\n";
  const auto colors = ce_colors(run);
  for (const TaskRecord& t : run.tasks) {
    const std::string where = t.platform.empty() ? "?" : t.platform;
    out << fmt::format("  t{} [label=\"{} #{}\\n{}{}\", fillcolor=\"#{:06x}\"{}];\n", t.id, t.ce,
                       t.id, where, t.failed ? " (failed)" : "",
                       palette_color(colors.at(t.qualified_ce())),
                       t.failed ? ", color=red, penwidth=3" : "");
  }
  for (const TaskRecord& t : run.tasks)
    for (std::size_t k = 0; k < t.deps.size(); ++k)
      if (t.deps[k].producer_task != 0)  // data the host produced is not a task
        out << fmt::format("  t{} -> t{} [label=\"{}\"];\n", t.deps[k].producer_task, t.id,
                           value_label(t.deps[k].version, datum_read(t, k)));
  write_host_edges(run, out);
  // A legend, so colors mean something without the trace at hand.
  out << "  subgraph cluster_legend {\n    label=\"CEs (dashed: through the host)\";\n";
  for (const auto& [ce, i] : colors)
    out << fmt::format("    legend{} [label=\"{}\", fillcolor=\"#{:06x}\"];\n", i,
                       dot_quoted(ce), palette_color(i));
  out << "  }\n}\n";
}

}  // namespace cei::rt::trace
