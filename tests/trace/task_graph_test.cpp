#include <cei/rt/trace/task_graph.hpp>

#include "known_run.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace cei::rt::trace {
namespace {

std::string dot_of_known_run() {
  test::KnownRun run;
  Recorder rec(run.origin);
  std::ostringstream out;
  rec.on_finish([&](const RunRecord& r) { write_dot(r, out); });
  run.play(rec);
  return out.str();
}

TEST(TaskGraph, HasExactlyTheDependencyEdgesLabeledWithVersions) {
  const std::string dot = dot_of_known_run();
  const std::regex edge(R"re(t(\d+) -> t(\d+) \[label="([^"]+)"\])re");
  std::set<std::tuple<int, int, std::string>> edges;
  std::size_t count = 0;
  for (auto it = std::sregex_iterator(dot.begin(), dot.end(), edge); it != std::sregex_iterator();
       ++it, ++count)
    edges.insert({std::stoi((*it)[1]), std::stoi((*it)[2]), (*it)[3]});
  const std::set<std::tuple<int, int, std::string>> expected = {
      {1, 3, "d1v2"}, {2, 3, "d2v2"}, {3, 4, "d3v1"}, {2, 4, "d2v2"}};
  EXPECT_EQ(edges, expected);
  EXPECT_EQ(count, expected.size());  // no duplicates
  // Nothing else in the file is an edge.
  std::size_t arrows = 0;
  for (std::size_t p = dot.find("->"); p != std::string::npos; p = dot.find("->", p + 2)) ++arrows;
  EXPECT_EQ(arrows, expected.size());
}

TEST(TaskGraph, ColorsTasksByTheirCeWithALegend) {
  const std::string dot = dot_of_known_run();
  const std::regex node(R"re(t(\d+) \[label="[^"]*", fillcolor="(#[0-9a-f]{6})")re");
  std::map<int, std::string> color;
  for (auto it = std::sregex_iterator(dot.begin(), dot.end(), node); it != std::sregex_iterator();
       ++it)
    color[std::stoi((*it)[1])] = (*it)[2];
  ASSERT_EQ(color.size(), 4u);
  EXPECT_EQ(color[1], color[2]);  // init, on cpu
  EXPECT_EQ(color[3], color[4]);  // multiply, on opencl0 and on cpu
  EXPECT_NE(color[1], color[3]);
  EXPECT_NE(dot.find("multiply #3\\nopencl0"), std::string::npos);  // the platform in the label
  EXPECT_NE(dot.find("[label=\"MatmulCEI::multiply\", fillcolor=\"" + color[3] + "\"]"),
            std::string::npos)
      << dot;
}

// A k-means in the program's own style: two chunks' labels named alike by the program's text,
// centroids read back by the host and written again between iterations.
RunRecord kmeans_run() {
  RunRecord run;
  auto task = [&](std::uint64_t id, const char* ce, std::vector<DataUse> data,
                  std::vector<Dependency> deps) {
    TaskRecord t;
    t.id = id, t.ce = ce, t.interface_name = "KMeansCEI", t.platform = "cpu";
    t.data = std::move(data), t.deps = std::move(deps);
    run.tasks.push_back(t);
  };
  task(1, "assign", {{"labels[c] v1", Dir::Out, 64, 12}}, {});
  task(2, "assign", {{"labels[c] v1", Dir::Out, 64, 13}}, {});
  task(3, "update",
       {{"labels[c] v1", Dir::In, 64, 12},
        {"labels[c] v1", Dir::In, 64, 13},
        {"centroids v1", Dir::Out, 32, 20}},
       {{1, "labels[c] v1"}, {2, "labels[c] v1"}});
  // The host read centroids v1 and wrote v2: the next iteration reads the host's value.
  task(4, "assign", {{"centroids v2", Dir::In, 32, 20}, {"labels[c] v2", Dir::Out, 64, 12}}, {});
  return run;
}

TEST(TaskGraph, EdgeLabelsTellValuesNamedAlikeApart) {
  std::ostringstream out;
  write_dot(kmeans_run(), out);
  const std::string dot = out.str();
  EXPECT_NE(dot.find("t1 -> t3 [label=\"labels[c] v1 (d12)\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("t2 -> t3 [label=\"labels[c] v1 (d13)\"]"), std::string::npos) << dot;
}

TEST(TaskGraph, DrawsDependenciesThroughTheHostDashed) {
  std::ostringstream out;
  write_dot(kmeans_run(), out);
  const std::string dot = out.str();
  EXPECT_NE(dot.find("t3 -> t4 [label=\"centroids v2 (d20), through the host\", style=dashed]"),
            std::string::npos)
      << dot;
  std::size_t arrows = 0;
  for (std::size_t p = dot.find("->"); p != std::string::npos; p = dot.find("->", p + 2)) ++arrows;
  EXPECT_EQ(arrows, 3u) << dot;  // t1->t3, t2->t3, t3->t4: nothing from a task to itself
}

}  // namespace
}  // namespace cei::rt::trace
