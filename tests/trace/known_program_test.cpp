// The trace, graph and summary of a known program run on the real runtime (CPU platform).
#include <gtest/gtest.h>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

class KnownProgram : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // ctest runs each test as its own process, in parallel: one folder per process.
    dir_ = fs::temp_directory_path() / ("cei-trace-known-program-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const std::string cmd = "CEI_TRACE=" + (dir_ / "trace.json").string() +
                            " CEI_GRAPH=" + (dir_ / "graph.dot").string() +
                            " CEI_SUMMARY=1 CEI_CPU_CORES=2 " + CEI_KNOWN_PROGRAM + " > " +
                            (dir_ / "out.txt").string() + " 2> " + (dir_ / "err.txt").string();
    status_ = std::system(cmd.c_str());
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static inline fs::path dir_;
  static inline int status_ = -1;
};

TEST_F(KnownProgram, TraceHoldsEveryTaskWithItsPlatformTimesAndForecasts) {
  ASSERT_EQ(status_, 0) << slurp(dir_ / "err.txt");
  const json doc = json::parse(slurp(dir_ / "trace.json"));
  std::map<int, std::string> procs;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name") procs[e["pid"]] = e["args"]["name"];
  std::map<std::uint64_t, json> tasks;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == "X" && e["cat"] == "task") tasks[e["args"]["task"]] = e;
  ASSERT_EQ(tasks.size(), 4u);
  const char* ce[] = {"scale_add", "scale_add", "combine", "scale_add"};
  for (std::uint64_t id = 1; id <= 4; ++id) {
    const json& t = tasks.at(id);
    EXPECT_EQ(t["name"], ce[id - 1]);
    EXPECT_EQ(procs.at(t["pid"]), "cpu (cpu)");
    EXPECT_GE(t["ts"].get<double>(), 0.0);
    EXPECT_GE(t["dur"].get<double>(), 0.0);
    ASSERT_GE(t["args"]["forecasts"].size(), 1u);
    EXPECT_EQ(t["args"]["chosen"], "cpu");
    EXPECT_FALSE(t["args"]["policy"].get<std::string>().empty());
  }
  // The chain runs in order: each task starts after its producer ended.
  for (std::uint64_t id = 2; id <= 4; ++id)
    EXPECT_GE(tasks.at(id)["ts"].get<double>(),
              tasks.at(id - 1)["ts"].get<double>() + tasks.at(id - 1)["dur"].get<double>() - 1e-3);
  // a = 1*3+2+1 = 6; b = 2*3+6+2 = 14; c = 6*2-14 = -2; a = 6*3-2+3 = 19: tracing changed nothing.
  EXPECT_EQ(slurp(dir_ / "out.txt"), "19\n");
}

TEST_F(KnownProgram, GraphHasExactlyTheProgramsDependencies) {
  ASSERT_EQ(status_, 0) << slurp(dir_ / "err.txt");
  const std::string dot = slurp(dir_ / "graph.dot");
  // d<N>: a program variable; r<N>: a value the runtime made (c, combine's result), never the
  // raw datum id "d281474976710657v1".
  const std::regex edge(R"re(t(\d+) -> t(\d+) \[label="([dr]\d+v\d+)"\])re");
  std::set<std::pair<int, int>> edges;
  std::map<std::pair<int, int>, std::string> labels;
  for (auto it = std::sregex_iterator(dot.begin(), dot.end(), edge); it != std::sregex_iterator();
       ++it) {
    edges.insert({std::stoi((*it)[1]), std::stoi((*it)[2])});
    labels[std::pair(std::stoi((*it)[1]), std::stoi((*it)[2]))] = (*it)[3];
  }
  const std::set<std::pair<int, int>> expected = {{1, 2}, {1, 3}, {2, 3}, {1, 4}, {3, 4}};
  EXPECT_EQ(edges, expected) << dot;
  const std::string c = labels[std::pair(3, 4)];
  EXPECT_EQ(c.rfind('r', 0), 0u) << c;
  for (const auto& [e, label] : labels) EXPECT_LE(label.size(), 6u) << label;
}

TEST_F(KnownProgram, SummaryCountsTheFourTasks) {
  ASSERT_EQ(status_, 0) << slurp(dir_ / "err.txt");
  const std::string err = slurp(dir_ / "err.txt");
  EXPECT_NE(err.find("cei: run summary"), std::string::npos) << err;
  EXPECT_TRUE(std::regex_search(err, std::regex(R"(TestCEI::scale_add\s+cpu\s+3\s+0 )"))) << err;
  EXPECT_TRUE(std::regex_search(err, std::regex(R"(TestCEI::combine\s+cpu\s+1\s+0 )"))) << err;
  EXPECT_TRUE(std::regex_search(err, std::regex(R"(\ntotal\s+4\s+0 )"))) << err;
}

}  // namespace
