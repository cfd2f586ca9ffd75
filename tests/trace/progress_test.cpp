#include <cei/rt/trace/progress.hpp>

#include "known_run.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

namespace cei::rt::trace {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}

struct TempFile {
  std::unique_ptr<std::FILE, decltype(&std::fclose)> f{std::tmpfile(), &std::fclose};
};

TEST(Progress, CountsDoneAndSubmittedPerPlatform) {
  TempFile out;
  Progress p(out.f.get(), false, std::chrono::hours(1));
  test::KnownRun run;
  run.play(p);
  // 4 tasks over the 60 ms their timings span: 66.7 a second.
  EXPECT_EQ(p.line(), "cei: 4/4 tasks (100%)  66.7 tasks/s  cpu 3/3  opencl0 1/1");
}

TEST(Progress, PrintsLinesWhenNotATerminal) {
  TempFile out;
  Progress p(out.f.get(), false, std::chrono::milliseconds(0));
  test::KnownRun run;
  run.play(p);
  const std::string text = contents(out.f.get());
  EXPECT_EQ(text.find('\r'), std::string::npos);
  // The first task ran 10 ms: 100 a second, and the 3 others submitted left in 30 ms.
  EXPECT_NE(text.find("cei: 1/4 tasks (25%)  100 tasks/s, <1 s left  cpu 1/3  opencl0 0/1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("cei: 4/4 tasks (100%)  66.7 tasks/s  cpu 3/3  opencl0 1/1\n"),
            std::string::npos)
      << text;
}

TEST(Progress, RewritesOneLineOnATerminal) {
  TempFile out;
  Progress p(out.f.get(), true, std::chrono::milliseconds(0));
  test::KnownRun run;
  run.play(p);
  const std::string text = contents(out.f.get());
  EXPECT_EQ(text.rfind("\r", 0), 0u);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);  // only the final one
  EXPECT_EQ(text.back(), '\n');
}

TEST(Progress, ATaskThatRunsElsewhereIsCountedWhereItRuns) {
  TempFile out;
  Progress p(out.f.get(), false, std::chrono::hours(1));
  test::FixedPlatform a{"a", "cpu", 1}, b{"b", "remote", 1};
  test::FixedTask t(1, test::kInit, {});
  const Candidate c[] = {{&a, {}}, {&b, {}}};
  p.task_submitted(t, {}, c, 1, "dynperf");
  EXPECT_EQ(p.line(), "cei: 0/1 tasks (0%)  b 0/1");
  p.task_started(t, a, 0);
  EXPECT_EQ(p.line(), "cei: 0/1 tasks (0%)  a 0/1  b 0/0");
  p.task_finished(t, a, 0, false);
  EXPECT_EQ(p.line(), "cei: 1/1 tasks (100%)  a 1/1  b 0/0");
}

}  // namespace
}  // namespace cei::rt::trace
