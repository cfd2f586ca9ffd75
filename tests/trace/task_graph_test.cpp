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

TEST(TaskGraph, ColorsTasksByThePlatformThatRanThem) {
  const std::string dot = dot_of_known_run();
  const std::regex node(R"re(t(\d+) \[label="[^"]*", fillcolor="(#[0-9a-f]{6})")re");
  std::map<int, std::string> color;
  for (auto it = std::sregex_iterator(dot.begin(), dot.end(), node); it != std::sregex_iterator();
       ++it)
    color[std::stoi((*it)[1])] = (*it)[2];
  ASSERT_EQ(color.size(), 4u);
  EXPECT_EQ(color[1], color[2]);
  EXPECT_EQ(color[1], color[4]);
  EXPECT_NE(color[1], color[3]);
  EXPECT_NE(dot.find("multiply #3\\nopencl0"), std::string::npos);
}

}  // namespace
}  // namespace cei::rt::trace
