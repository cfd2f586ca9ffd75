#include <cei/rt/trace/task_graph.hpp>

#include "palette.hpp"

#include <fmt/format.h>

namespace cei::rt::trace {
namespace {

std::string platform_color(const RunRecord& run, const std::string& platform) {
  for (std::size_t i = 0; i < run.platforms.size(); ++i)
    if (run.platforms[i].name == platform) return fmt::format("#{:06x}", palette_color(i));
  return "#ffffff";
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

}  // namespace

void write_dot(const RunRecord& run, std::ostream& out) {
  out << "digraph cei {\n"
         "  rankdir=TB;\n"
         "  node [shape=box, style=\"rounded,filled\", fontname=\"sans-serif\"];\n"
         "  edge [fontname=\"sans-serif\", fontsize=10];\n";
  for (const TaskRecord& t : run.tasks) {
    const std::string where = t.platform.empty() ? "?" : t.platform;
    out << fmt::format("  t{} [label=\"{} #{}\\n{}{}\", fillcolor=\"{}\"{}];\n", t.id, t.ce, t.id,
                       where, t.failed ? " (failed)" : "", platform_color(run, t.platform),
                       t.failed ? ", color=red, penwidth=3" : "");
  }
  for (const TaskRecord& t : run.tasks)
    for (const Dependency& d : t.deps)
      if (d.producer_task != 0)  // data the host produced is not a task
        out << fmt::format("  t{} -> t{} [label=\"{}\"];\n", d.producer_task, t.id,
                           dot_quoted(d.version));
  // A legend, so colors mean something without the trace at hand.
  out << "  subgraph cluster_legend {\n    label=\"platforms\";\n";
  for (std::size_t i = 0; i < run.platforms.size(); ++i)
    out << fmt::format("    legend{} [label=\"{}\", fillcolor=\"#{:06x}\"];\n", i,
                       run.platforms[i].name, palette_color(i));
  out << "  }\n}\n";
}

}  // namespace cei::rt::trace
