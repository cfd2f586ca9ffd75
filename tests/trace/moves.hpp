// What the second-thoughts tests check of a run's record, whichever platform slowed down:
//
//   std::size_t n = expect_moves(run, before, "cl", "cpu");  // the moves after the first `before`
//   expect_moves_shown(run, "cl", "cpu");                     // in the trace and the summary
//   rt::add_observer(counts);  // TaskCounts: how often each task began, and was settled
#pragma once

#include <cei/rt/observer.hpp>
#include <cei/rt/trace/chrome_trace.hpp>
#include <cei/rt/trace/run_record.hpp>
#include <cei/rt/trace/run_summary.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

namespace cei::test {

// Every move of the run went from `from` to `to`, from a platform behind its forecasts, and its
// task ran where it went. Returns how many moves came after the first `before`.
inline std::size_t expect_moves(const rt::trace::RunRecord& run, std::size_t before,
                                const std::string& from, const std::string& to) {
  std::map<std::uint64_t, std::string> ran_on;
  for (const auto& t : run.tasks) ran_on[t.id] = t.platform;
  for (const auto& r : run.replacements) {
    EXPECT_EQ(r.from, from);
    EXPECT_EQ(r.to, to);
    EXPECT_GT(r.lag, 1) << "placed again although " << from << " ran as its profile says";
    EXPECT_EQ(ran_on[r.task], to) << "task " << r.task;
  }
  return run.replacements.size() - before;
}

// The trace marks the moves, and the summary counts every one of them.
inline void expect_moves_shown(const rt::trace::RunRecord& run, const std::string& from,
                               const std::string& to) {
  std::ostringstream trace;
  rt::trace::write_chrome_trace(run, trace);
  EXPECT_NE(trace.str().find("\"re-placed → " + to + "\""), std::string::npos);
  const std::string summary = rt::trace::format_summary(run);
  EXPECT_NE(summary.find("re-placed: " + std::to_string(run.replacements.size()) +
                         " queued task(s) from platforms behind their forecasts (" + from + " → " +
                         to + ": "),
            std::string::npos)
      << summary;
}

// How many times each task began (on a platform that reports starts) and got a verdict, on any
// platform: a task moved runs once, where it went. Thread-safe.
struct TaskCounts final : rt::Observer {
  std::mutex mu;
  std::map<std::uint64_t, int> started, settled;  // under mu
  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task& t, const rt::Platform&, int) override {
    std::lock_guard g(mu);
    ++started[t.id()];
  }
  void task_finished(const rt::Task& t, const rt::Platform&, int, bool) override {
    std::lock_guard g(mu);
    ++settled[t.id()];
  }
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
};

// Each of `tasks` tasks had count 1 in `of` (started or settled).
inline void expect_once_each(const std::map<std::uint64_t, int>& of, std::size_t tasks) {
  EXPECT_EQ(of.size(), tasks);
  for (const auto& [id, n] : of) EXPECT_EQ(n, 1) << "task " << id << ": " << n << " times";
}

}  // namespace cei::test
