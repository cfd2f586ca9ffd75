#include <cei/rt/trace/log.hpp>
#include <cei/rt/trace/observers.hpp>

#include "known_run.hpp"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace cei::rt {
namespace {

namespace fs = std::filesystem;

// Plays the known run to every installed observer, as the executor does.
class Broadcast final : public Observer {
 public:
  void task_submitted(const Task& t, std::span<const Dependency> d, std::span<const Candidate> c,
                      std::size_t i, const char* p) override {
    for (auto& o : *observers()) o->task_submitted(t, d, c, i, p);
  }
  void task_started(const Task& t, const Platform& p, int l) override {
    for (auto& o : *observers()) o->task_started(t, p, l);
  }
  void task_finished(const Task& t, const Platform& p, int l, bool f) override {
    for (auto& o : *observers()) o->task_finished(t, p, l, f);
  }
  void transfer(const TransferEvent& e) override {
    for (auto& o : *observers()) o->transfer(e);
  }
  void run_finished() override {
    for (auto& o : *observers()) o->run_finished();
  }
};

class InstallFromEnv : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cei-trace-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    clear_observers();
    log().set_level(spdlog::level::warn);  // CEI_LOG=debug in the caller's shell adds a logger
    for (const char* v : {"CEI_TRACE", "CEI_GRAPH", "CEI_SUMMARY", "CEI_PROGRESS"}) unsetenv(v);
  }
  void TearDown() override {
    clear_observers();
    fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_F(InstallFromEnv, NothingAskedNothingInstalled) {
  install_observers_from_env();
  EXPECT_TRUE(observers()->empty());
}

TEST_F(InstallFromEnv, WritesTraceAndGraphAndPrintsTheSummaryAtRunFinished) {
  const fs::path trace = dir_ / "trace.json", graph = dir_ / "graph.dot";
  setenv("CEI_TRACE", trace.c_str(), 1);
  setenv("CEI_GRAPH", graph.c_str(), 1);
  setenv("CEI_SUMMARY", "1", 1);
  install_observers_from_env();
  EXPECT_EQ(observers()->size(), 1u);  // one recorder feeds all three

  Broadcast all;
  test::KnownRun run;
  ::testing::internal::CaptureStderr();
  run.play(all);
  const std::string err = ::testing::internal::GetCapturedStderr();

  std::ifstream t(trace);
  const auto doc = nlohmann::json::parse(t);
  std::size_t tasks = 0;
  for (const auto& e : doc["traceEvents"]) tasks += e["ph"] == "X" && e["cat"] == "task";
  EXPECT_EQ(tasks, 4u);
  std::ifstream g(graph);
  const std::string dot((std::istreambuf_iterator<char>(g)), {});
  EXPECT_EQ(dot.rfind("digraph cei {", 0), 0u);
  EXPECT_NE(err.find("cei: run summary"), std::string::npos) << err;
  EXPECT_NE(err.find("MatmulCEI::multiply"), std::string::npos) << err;
}

TEST_F(InstallFromEnv, ProgressIsItsOwnObserver) {
  setenv("CEI_PROGRESS", "1", 1);
  setenv("CEI_SUMMARY", "0", 1);
  install_observers_from_env();
  EXPECT_EQ(observers()->size(), 1u);
}

TEST(Log, IsTheNamedSpdlogLoggerOthersCanFind) {
  spdlog::logger& l = log();
  EXPECT_EQ(l.name(), "cei");
  EXPECT_EQ(spdlog::get("cei").get(), &l);
  EXPECT_EQ(&log(), &l);
}

}  // namespace
}  // namespace cei::rt
