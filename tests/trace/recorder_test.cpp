#include <cei/rt/trace/run_record.hpp>

#include "known_run.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace cei::rt::trace {
namespace {

using test::KnownRun;

TEST(Recorder, AssemblesEveryTaskWithWhereAndWhenItRan) {
  KnownRun run;
  Recorder rec(run.origin);
  run.play(rec);
  const RunRecord r = rec.snapshot();

  ASSERT_EQ(r.tasks.size(), 4u);
  ASSERT_EQ(r.platforms.size(), 2u);
  EXPECT_EQ(r.platforms[0].name, "cpu");
  EXPECT_EQ(r.platforms[1].name, "opencl0");
  EXPECT_EQ(r.platforms[1].kind, "opencl");
  const char* expected_platform[] = {"cpu", "cpu", "opencl0", "cpu"};
  for (std::size_t i = 0; i < 4; ++i) {
    const TaskRecord& t = r.tasks[i];
    EXPECT_EQ(t.id, i + 1);
    EXPECT_TRUE(t.finished);
    EXPECT_EQ(t.platform, expected_platform[i]);
    EXPECT_NEAR(r.seconds(t.start), KnownRun::kTimes[i][0] / 1e3, 1e-9);
    EXPECT_NEAR(r.seconds(t.end), KnownRun::kTimes[i][1] / 1e3, 1e-9);
    EXPECT_EQ(t.forecasts.size(), 2u);
    EXPECT_EQ(t.policy, "dynperf");
  }
  EXPECT_EQ(r.tasks[2].implementation, "opencl");
  EXPECT_EQ(r.tasks[3].implementation, "matmul");
  EXPECT_EQ(r.tasks[2].chosen, 1);
  EXPECT_EQ(r.tasks[2].qualified_ce(), "MatmulCEI::multiply");
  EXPECT_NEAR(r.makespan_s(), 0.060, 1e-9);
}

TEST(Recorder, RecordsDataVersionsAndOutputSizesKnownOnlyAtTheEnd) {
  KnownRun run;
  Recorder rec(run.origin);
  run.play(rec);
  const RunRecord r = rec.snapshot();
  const TaskRecord* t3 = r.find_task(3);
  ASSERT_NE(t3, nullptr);
  ASSERT_EQ(t3->data.size(), 3u);
  EXPECT_EQ(t3->data[0].version, "d1v2");
  EXPECT_EQ(t3->data[0].dir, Dir::In);
  EXPECT_EQ(t3->data[0].bytes, 4000u);
  EXPECT_EQ(t3->data[2].version, "d3v1");
  EXPECT_EQ(t3->data[2].dir, Dir::Out);
  EXPECT_EQ(t3->data[2].bytes, 16000u);  // was 0 at submission
  // Task 4 was submitted before its input d3v1 existed; its size is known once the task ends.
  EXPECT_EQ(r.find_task(4)->data[0].version, "d3v1");
  EXPECT_EQ(r.find_task(4)->data[0].bytes, 16000u);
  // An InOut argument reads one version and produces the next.
  const TaskRecord* t1 = r.find_task(1);
  ASSERT_EQ(t1->data.size(), 2u);
  EXPECT_EQ(t1->data[0].version, "d1v1");
  EXPECT_EQ(t1->data[1].version, "d1v2");
  EXPECT_EQ(r.transfers.size(), 3u);
}

TEST(Recorder, KeepsEveryEventFromManyThreads) {
  test::FixedPlatform cpu{"cpu", "cpu", 8};
  Recorder rec;
  constexpr int kThreads = 8, kPerThread = 500;
  std::vector<std::thread> threads;
  for (int th = 0; th < kThreads; ++th)
    threads.emplace_back([&, th] {
      for (int i = 0; i < kPerThread; ++i) {
        test::FixedTask t(th * kPerThread + i + 1, test::kInit, {});
        const Candidate c[] = {{&cpu, {}}};
        rec.task_submitted(t, {}, c, 0, "static");
        rec.task_started(t, cpu, th);
        rec.task_finished(t, cpu, th, i % 7 == 0);
      }
    });
  for (auto& t : threads) t.join();
  const RunRecord r = rec.snapshot();
  ASSERT_EQ(r.tasks.size(), std::size_t{kThreads * kPerThread});
  std::size_t failed = 0;
  for (std::size_t i = 0; i < r.tasks.size(); ++i) {
    EXPECT_EQ(r.tasks[i].id, i + 1);
    EXPECT_TRUE(r.tasks[i].finished);
    failed += r.tasks[i].failed;
  }
  EXPECT_EQ(failed, std::size_t{kThreads * ((kPerThread + 6) / 7)});
}

TEST(Recorder, HandsTheRecordToEverySinkAtRunFinished) {
  KnownRun run;
  Recorder rec(run.origin);
  int calls = 0;
  std::size_t seen = 0;
  rec.on_finish([&](const RunRecord& r) { ++calls, seen = r.tasks.size(); });
  rec.on_finish([&](const RunRecord&) { ++calls; });
  run.play(rec);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(seen, 4u);
}

}  // namespace
}  // namespace cei::rt::trace
