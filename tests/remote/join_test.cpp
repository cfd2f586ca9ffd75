// Nodes that join during the run (docs/remote.md, "Nodes that join"), with real worker processes:
// the program starts with node1 and CEI_REMOTE_JOIN naming a folder; once it has run tasks, a
// second worker is started and its entry written in the folder: node2 joins, runs the tasks
// placed after that, and the summary and the trace say so. Files that name no usable node (a
// malformed one, a token that would inject a header, a URL where nothing listens, a name
// already taken) are each a warning naming the file, and the run goes on. Every result equals
// the sequential one.
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/policy.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/trace/chrome_trace.hpp>
#include <cei/rt/trace/log.hpp>
#include <cei/rt/trace/run_record.hpp>
#include <cei/rt/trace/run_summary.hpp>

#include <gtest/gtest.h>
#include <spdlog/sinks/base_sink.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace remote_test {
namespace {

using namespace cei::rt;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// Every task to the last remote platform that can run it: node2 once it joined (platforms are
// offered in the order they were added), node1 before.
class LastRemote : public Policy {
 public:
  const char* name() const override { return "last-remote"; }
  std::size_t choose(const CeInfo&, std::span<const Candidate> c) override {
    for (std::size_t i = c.size(); i-- > 0;)
      if (std::string_view(c[i].platform->kind()) == "remote") return i;
    return 0;
  }
};

// The runtime's warnings, as printed.
class Warnings : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::string text() {
    std::lock_guard lock(mutex_);
    return text_;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& m) override {
    text_.append(m.payload.data(), m.payload.size()).push_back('\n');
  }
  void flush_() override {}

 private:
  std::string text_;
};

// How many tasks each platform finished.
class Finished : public Observer {
 public:
  void task_submitted(const Task&, std::span<const Dependency>, std::span<const Candidate>,
                      std::size_t, const char*) override {}
  void task_started(const Task&, const Platform&, int) override {}
  void task_finished(const Task&, const Platform& p, int, bool) override {
    std::lock_guard lock(mu_);
    ++count_[p.name()];
  }
  void transfer(const TransferEvent&) override {}
  void run_finished() override {}
  int count(const std::string& platform) {
    std::lock_guard lock(mu_);
    return count_[platform];
  }

 private:
  std::mutex mu_;
  std::map<std::string, int> count_;
};

bool poll(const std::function<bool()>& done, Clock::duration within) {
  const auto deadline = Clock::now() + within;
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // a poll's step, not a sync
  }
  return true;
}

// Written whole, then renamed: the watch never sees half a file (as cei-run writes it).
void publish(const fs::path& dir, const std::string& file, const std::string& text) {
  std::ofstream(dir / (file + ".tmp")) << text << "\n";
  fs::rename(dir / (file + ".tmp"), dir / file);
}

std::string entry(const std::string& name, const WorkerProcess& w) {
  return name + "=" + w.url() + ",token=" + w.token() + ",health_ms=100";
}

TEST(Join, ANodeStartedMidRunJoinsAndRunsTasks) {
  const fs::path dir = fs::temp_directory_path() / ("cei-join-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  WorkerProcess node1;
  setenv("CEI_REMOTE", entry("node1", node1).c_str(), 1);
  setenv("CEI_REMOTE_JOIN", dir.c_str(), 1);
  auto warnings = std::make_shared<Warnings>();
  log().sinks().push_back(warnings);
  auto finished = std::make_shared<Finished>();
  auto record = std::make_shared<trace::Recorder>();
  add_observer(finished);  // observers are read when the runtime starts
  add_observer(record);
  Runtime& rt = Runtime::instance();
  rt.set_policy(std::make_unique<LastRemote>());
  publish(dir, "worker.1.url", entry("node1", node1));  // the start's own node: no news

  std::vector<int> before(8);
  for (int i = 0; i < 8; ++i) assign(before[i], call<int>(ce_inc, in<int>(i)));
  for (int i = 0; i < 8; ++i) ASSERT_EQ(sync_read(before[i]), i + 1);
  ASSERT_TRUE(poll([&] { return finished->count("node1") >= 8; }, std::chrono::seconds(10)));

  // Mid-run: bad files, then a worker that answers.
  publish(dir, "bad.url", "no entry here");
  publish(dir, "evil.url", "node8=http://127.0.0.1:1,token=T\rX-Evil: 1");  // a header injected
  publish(dir, "dead.url", "node7=http://127.0.0.1:" + std::to_string(free_port()) + ",token=t");
  WorkerProcess other;
  publish(dir, "dup.url", entry("node1", other));
  WorkerProcess node2;
  publish(dir, "worker.2.url", entry("node2", node2));
  ASSERT_TRUE(poll([&] { return rt.find_platform("node2") != nullptr; }, std::chrono::seconds(10)))
      << "node2 did not join; warnings:\n"
      << warnings->text();

  std::vector<int> after(8);
  for (int i = 0; i < 8; ++i) assign(after[i], call<int>(ce_inc, in<int>(10 * i)));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(sync_read(after[i]), 10 * i + 1);
  cei::barrier();  // observers hear of a task after its outputs are published
  EXPECT_EQ(finished->count("node2"), 8) << "the tasks placed after node2 joined";
  EXPECT_EQ(rt.find_platform("node7"), nullptr);
  EXPECT_EQ(rt.find_platform("node8"), nullptr);

  const std::string w = warnings->text();
  EXPECT_NE(w.find("CEI_REMOTE_JOIN: " + (dir / "bad.url").string() + ": "), std::string::npos)
      << w;
  EXPECT_NE(w.find("CEI_REMOTE_JOIN: " + (dir / "evil.url").string() +
                   ": CEI_REMOTE: node8: token: control characters"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("CEI_REMOTE_JOIN: " + (dir / "dead.url").string() + ": node node7"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("CEI_REMOTE_JOIN: " + (dir / "dup.url").string() +
                   ": node1 is already the node at " + node1.url()),
            std::string::npos)
      << w;
  EXPECT_EQ(w.find("worker.1.url"), std::string::npos) << "the start's node is no news: " << w;

  const trace::RunRecord run = record->snapshot();
  ASSERT_EQ(run.memberships.size(), 1u);
  EXPECT_TRUE(run.memberships[0].joined);
  EXPECT_EQ(run.memberships[0].platform, "node2");
  EXPECT_NE(trace::format_summary(run).find("membership: node2 joined at "), std::string::npos)
      << trace::format_summary(run);
  std::ostringstream events;
  trace::write_chrome_trace(run, events);
  // Written with an indent: `"name": "joined"`.
  EXPECT_NE(events.str().find(R"("name": "joined")"), std::string::npos) << "the trace's marker";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace remote_test
