#include <cei/rt/trace/run_summary.hpp>

#include "known_run.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

namespace cei::rt::trace {
namespace {

Summary summary_of_known_run() {
  test::KnownRun run;
  Recorder rec(run.origin);
  run.play(rec);
  return summarize(rec.snapshot());
}

const SummaryRow& row(const Summary& s, const std::string& ce, const std::string& platform) {
  for (const auto& r : s.rows)
    if (r.ce == ce && r.platform == platform) return r;
  throw std::runtime_error("no row " + ce + " on " + platform);
}

TEST(RunSummary, TaskCountsEqualTheTasksSubmitted) {
  const Summary s = summary_of_known_run();
  ASSERT_EQ(s.rows.size(), 3u);
  std::size_t total = 0;
  for (const auto& r : s.rows) total += r.tasks;
  EXPECT_EQ(total, 4u);
  EXPECT_EQ(row(s, "MatmulCEI::init", "cpu").tasks, 2u);
  EXPECT_EQ(row(s, "MatmulCEI::multiply", "cpu").tasks, 1u);
  EXPECT_EQ(row(s, "MatmulCEI::multiply", "opencl0").tasks, 1u);
  EXPECT_EQ(s.policy, "dynperf");
  EXPECT_NEAR(s.makespan_s, 0.060, 1e-9);
}

TEST(RunSummary, CountsTasksThatNeverStartedOnTheChosenPlatform) {
  test::FixedPlatform cpu{"cpu", "cpu", 1};
  test::FixedTask t(1, test::kInit, {});
  Recorder rec;
  const Candidate c[] = {{&cpu, {}}};
  rec.task_submitted(t, {}, c, 0, "static");
  const Summary s = summarize(rec.snapshot());
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.rows[0].platform, "cpu");
  EXPECT_EQ(s.rows[0].tasks, 1u);
  EXPECT_EQ(s.rows[0].busy_s, 0.0);
}

TEST(RunSummary, BusyTimeEnergyWithItsSourceCostAndBytes) {
  const Summary s = summary_of_known_run();
  const SummaryRow& init = row(s, "MatmulCEI::init", "cpu");
  EXPECT_NEAR(init.busy_s, 0.022, 1e-9);
  // Task 1 measured 0.5 J; task 2 reported none, so its forecast (1 J, regression) counts.
  EXPECT_NEAR(init.energy_j, 1.5, 1e-12);
  EXPECT_EQ(init.energy_source, "mixed");
  const SummaryRow& gpu = row(s, "MatmulCEI::multiply", "opencl0");
  EXPECT_NEAR(gpu.busy_s, 0.025, 1e-9);
  EXPECT_NEAR(gpu.energy_j, 2.0, 1e-12);
  EXPECT_EQ(gpu.energy_source, "default");
  // No prices: the forecast's 0.02 is not what the run cost.
  EXPECT_EQ(gpu.cost, 0.0);
  EXPECT_EQ(gpu.bytes_moved, 8000u);  // its two inputs went to the device
  EXPECT_EQ(row(s, "MatmulCEI::multiply", "cpu").bytes_moved, 16000u);
}

// The cost column is what the run cost: the busy time at the platform's price per hour plus the
// bytes it moved at its price per GB, not the forecasts' figures (0.01 and 0.02 per task here).
TEST(RunSummary, CostIsBusyTimeAndBytesAtThePlatformsPrices) {
  test::KnownRun run;
  run.gpu.set_prices({0.09, 0.5});
  Recorder rec(run.origin);
  run.play(rec);
  const Summary s = summarize(rec.snapshot());
  const SummaryRow& gpu = row(s, "MatmulCEI::multiply", "opencl0");
  EXPECT_NEAR(gpu.cost, 0.5 * 0.025 / 3600 + 0.09 * 8000 / 1e9, 1e-15);
  EXPECT_EQ(row(s, "MatmulCEI::multiply", "cpu").cost, 0.0);
  EXPECT_EQ(row(s, "MatmulCEI::init", "cpu").cost, 0.0);
}

// 2.6 s of a node at 0.5 per hour cost 0.000361: the table shows it, not 0.0000.
TEST(RunSummary, ASmallCostIsPrinted) {
  test::FixedPlatform node{"node1", "remote", 4};
  node.set_prices({0, 0.5});
  test::FixedTask t(1, test::kInit, {});
  const Clock::time_point t0 = Clock::now();
  t.timing().start = t0;
  t.timing().end = t0 + std::chrono::milliseconds(2600);
  Recorder rec(t0);
  const Candidate c[] = {{&node, {}}};
  rec.task_submitted(t, {}, c, 0, "dynperf");
  rec.task_started(t, node, 0);
  rec.task_finished(t, node, 0, false);
  const Summary s = summarize(rec.snapshot());
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_NEAR(s.rows[0].busy_s, 2.6, 1e-9);
  EXPECT_NEAR(s.rows[0].cost, 2.6 * 0.5 / 3600, 1e-12);
  const std::string text = format_summary(s);
  EXPECT_NE(text.find(" 0.000361 "), std::string::npos) << text;
}

// A platform that says where its joules came from (the power model here, with no sensor read)
// is shown as such, never as "measured".
TEST(RunSummary, EnergyFromTheSourceThePlatformNamed) {
  test::FixedPlatform cpu{"cpu", "cpu", 1};
  test::FixedTask t(1, test::kInit, {});
  t.timing().energy_j = 0.75;
  t.timing().energy_source = "model";
  Recorder rec;
  const Candidate c[] = {{&cpu, {}}};
  rec.task_submitted(t, {}, c, 0, "dynperf");
  rec.task_started(t, cpu, 0);
  rec.task_finished(t, cpu, 0, false);
  const Summary s = summarize(rec.snapshot());
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_NEAR(s.rows[0].energy_j, 0.75, 1e-12);
  EXPECT_EQ(s.rows[0].energy_source, "model");
}

// Tasks taken back from a platform behind its forecasts, and from one on time because a device
// opened: a line each.
TEST(RunSummary, SaysWhyQueuedTasksWerePlacedAgain) {
  test::FixedPlatform cpu{"cpu", "cpu", 1}, cl{"opencl0", "opencl", 1};
  test::FixedTask late(1, test::kInit, {}), opened(2, test::kInit, {});
  Recorder rec;
  rec.task_replaced(late, cpu, cl, 2.5);
  rec.task_replaced(opened, cpu, cl, 0.0);
  const std::string text = format_summary(summarize(rec.snapshot()));
  EXPECT_NE(text.find("re-placed: 1 queued task(s) from platforms behind their forecasts (cpu → "
                      "opencl0: 1)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("re-placed: 1 queued task(s) when a device opened (cpu → opencl0: 1)\n"),
            std::string::npos)
      << text;
}

// A node lost and admitted again (its health checks), twice lost in all: a line per platform.
TEST(RunSummary, CountsPlatformsLostAndAdmittedAgain) {
  test::FixedPlatform node{"node1", "remote", 1};
  test::FixedTask t(1, test::kInit, {});
  Recorder rec;
  const Candidate c[] = {{&node, {}}};
  rec.task_submitted(t, {}, c, 0, "dynperf");
  rec.task_finished(t, node, 0, false);
  rec.platform_membership(node, true);
  rec.platform_membership(node, false);
  rec.platform_membership(node, true);
  const RunRecord run = rec.snapshot();
  ASSERT_EQ(run.memberships.size(), 3u);
  EXPECT_FALSE(run.memberships[1].lost);
  const std::string text = format_summary(summarize(run));
  EXPECT_NE(text.find("membership: node1 lost 2 time(s), re-admitted 1 time(s)\n"),
            std::string::npos)
      << text;
}

// A node that joined during the run: its line says when.
TEST(RunSummary, SaysWhenANodeJoined) {
  test::FixedPlatform node{"node3", "remote", 1};
  Recorder rec(Clock::now() - std::chrono::milliseconds(2100));
  rec.platform_joined(node);
  const RunRecord run = rec.snapshot();
  ASSERT_EQ(run.memberships.size(), 1u);
  EXPECT_TRUE(run.memberships[0].joined);
  const std::string text = format_summary(summarize(run));
  EXPECT_NE(text.find("membership: node3 joined at 2.1 s\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("lost"), std::string::npos) << text;
}

// Bytes per link: the host's uploads, a node's fetch from another node, a download to the host.
TEST(RunSummary, CountsTheBytesOfEveryLink) {
  test::FixedPlatform node1{"node1", "remote", 1}, node2{"node2", "remote", 1};
  const auto t0 = Clock::now(), t1 = t0 + std::chrono::milliseconds(1);
  Recorder rec;
  rec.transfer({&node1, 1, "d1v1", 500, true, t0, t1});
  rec.transfer({&node1, 1, "d2v1", 300, true, t0, t1});
  rec.transfer({&node2, 2, "r1v1", 4096, true, t0, t1, &node1});
  rec.transfer({&node2, 0, "r2v1", 1000, false, t0, t1});
  const Summary s = summarize(rec.snapshot());
  using Link = std::pair<std::size_t, std::size_t>;
  EXPECT_EQ(s.links.at({"host", "node1"}), (Link{800, 2}));
  EXPECT_EQ(s.links.at({"node1", "node2"}), (Link{4096, 1}));
  EXPECT_EQ(s.links.at({"node2", "host"}), (Link{1000, 1}));
  EXPECT_EQ(s.links.count({"host", "node2"}), 0u);
  const std::string text = format_summary(s);
  EXPECT_NE(text.find("links: host → node1 800 B (2), node1 → node2 4.0 KiB (1), node2 → host "
                      "1000 B (1)\n"),
            std::string::npos)
      << text;
}

TEST(RunSummary, PrintsAnAlignedTable) {
  const std::string text = format_summary(summary_of_known_run());
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  // title, head, rule, rows, rule, total, the links; a blank line, then the energy per platform:
  // head, rule, cpu and opencl0.
  ASSERT_EQ(lines.size(), 1 + 1 + 1 + 3 + 1 + 1u + 1 + 1 + 1 + 1 + 2);
  EXPECT_NE(lines[0].find("makespan 0.060 s"), std::string::npos);
  EXPECT_NE(lines[0].find("dynperf"), std::string::npos);
  // Right-aligned numbers: every row's "tasks" column ends where the header's does.
  const std::size_t tasks_end = lines[1].find("tasks") + 5;
  for (std::size_t i : {3u, 4u, 5u, 7u}) {
    ASSERT_GT(lines[i].size(), tasks_end);
    EXPECT_NE(lines[i][tasks_end - 1], ' ') << lines[i];
    EXPECT_EQ(lines[i][tasks_end], ' ') << lines[i];
  }
  EXPECT_EQ(lines[7].rfind("total", 0), 0u);
  EXPECT_NE(lines[7].find(" 4 "), std::string::npos);
  EXPECT_EQ(lines[8], "links: host → opencl0 7.8 KiB (2), opencl0 → host 15.6 KiB (1)") << lines[8];
  EXPECT_EQ(lines[9], "");
  EXPECT_EQ(lines[10].rfind("platform  tasks J  idle J  meter J  energy from", 0), 0u) << lines[10];
  // No meter: the tasks' figures, and no idle or meter total to show.
  EXPECT_EQ(lines[12], "cpu         2.500       -        -  mixed") << lines[12];
  EXPECT_EQ(lines[13], "opencl0     2.000       -        -  default") << lines[13];
}

// A meter's figures come after the task finished (and may come before its finish is recorded);
// each run of a task adds its own. The platform's account shows the idle energy apart.
TEST(RunSummary, MeteredEnergyArrivesLateAndIdleEnergyIsShownApart) {
  test::FixedPlatform cpu{"cpu", "cpu", 2}, gpu{"opencl0", "opencl", 1};
  test::FixedTask t(1, test::kInit, {}), m(2, test::kInit, {});
  t.timing().energy_source = "rapl";  // metered: no figure in the Timing
  m.timing().energy_j = 0.4;
  m.timing().energy_source = "model";
  Recorder rec;
  const Candidate on_cpu[] = {{&cpu, test::forecast(1, 9.0, 0, Source::Default)}};
  const Candidate on_gpu[] = {{&gpu, test::forecast(1, 9.0, 0, Source::Default)}};
  rec.task_submitted(t, {}, on_cpu, 0, "dynen");
  rec.task_submitted(m, {}, on_gpu, 0, "dynen");
  rec.task_started(t, cpu, 0);
  rec.task_energy(1, cpu, 0.25, "rapl");  // from the sampler's thread, before the finish
  rec.task_finished(t, cpu, 0, false);
  rec.task_energy(1, cpu, 0.5, "rapl");  // a second run of the task
  rec.task_started(m, gpu, 0);
  rec.task_finished(m, gpu, 0, false);
  rec.platform_energy(cpu, {.tasks_j = 0.5, .idle_j = 1, .total_j = 1.5, .source = "rapl"});
  rec.platform_energy(cpu, {.tasks_j = 0.75, .idle_j = 2.25, .total_j = 3, .source = "rapl"});
  const RunRecord run = rec.snapshot();
  ASSERT_NE(run.find_task(1), nullptr);
  EXPECT_NEAR(run.find_task(1)->timing.energy_j, 0.75, 1e-12);  // what the trace shows too
  ASSERT_EQ(run.meters.size(), 1u);
  EXPECT_EQ(run.meters[0].platform, "cpu");
  EXPECT_NEAR(run.meters[0].total_j, 3, 1e-12);  // the later account replaced the earlier

  const Summary s = summarize(run);
  EXPECT_NEAR(row(s, "MatmulCEI::init", "cpu").energy_j, 0.75, 1e-12);  // not the forecast's 9
  EXPECT_EQ(row(s, "MatmulCEI::init", "cpu").energy_source, "rapl");
  ASSERT_EQ(s.energy.size(), 2u);
  const PlatformEnergyRow& c = s.energy[0];
  EXPECT_EQ(c.platform, "cpu");
  EXPECT_TRUE(c.metered);
  EXPECT_NEAR(c.tasks_j, 0.75, 1e-12);
  EXPECT_NEAR(c.idle_j, 2.25, 1e-12);
  EXPECT_NEAR(c.meter_j, 3, 1e-12);
  EXPECT_EQ(c.energy_source, "rapl");
  const PlatformEnergyRow& g = s.energy[1];
  EXPECT_EQ(g.platform, "opencl0");
  EXPECT_FALSE(g.metered);
  EXPECT_NEAR(g.tasks_j, 0.4, 1e-12);
  EXPECT_EQ(g.energy_source, "model");
  const std::string text = format_summary(s);
  EXPECT_NE(text.find("cpu         0.750   2.250    3.000  rapl\n"), std::string::npos) << text;
  EXPECT_NE(text.find("opencl0     0.400       -        -  model\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace cei::rt::trace

namespace cei::rt::trace {
namespace {

// A group's row: its goal, the quality counts of its report, and its tasks' energy as the rows
// count it (the platform's figure with its source), tasks outside the group left out.
TEST(RunSummary, GroupRowsSayBudgetEnergyItsSourceAndQualities) {
  test::FixedPlatform cpu{"cpu", "cpu", 1};
  test::FixedTask t1(1, test::kInit, {}), t2(2, test::kInit, {}), t3(3, test::kInit, {});
  Recorder rec;
  const Candidate c[] = {{&cpu, {}}};
  for (test::FixedTask* t : {&t1, &t2, &t3}) {
    t->timing().energy_j = 2.0;
    t->timing().energy_source = "rapl";
    rec.task_submitted(*t, {}, c, 0, "dynperf");
    rec.task_started(*t, cpu, 0);
    rec.task_finished(*t, cpu, 0, false);
  }
  GroupReport g;
  g.id = 1;
  g.where = "main.cpp:12";
  g.budget_j = 5;
  g.step = "approximate";
  g.meets_budget = false;
  g.tasks = {{1, Quality::Accurate}, {2, Quality::Approximate}, {9, Quality::Dropped}};
  rec.group_closed(g);
  const Summary s = summarize(rec.snapshot());
  ASSERT_EQ(s.groups.size(), 1u);
  const GroupRow& row = s.groups[0];
  EXPECT_EQ(row.where, "main.cpp:12");
  EXPECT_TRUE(row.has_budget);
  EXPECT_DOUBLE_EQ(row.budget_j, 5);
  EXPECT_DOUBLE_EQ(row.energy_j, 4);  // tasks 1 and 2; task 3 is not the group's
  EXPECT_EQ(row.energy_source, "rapl");
  EXPECT_EQ(row.accurate, 1u);
  EXPECT_EQ(row.approximate, 1u);
  EXPECT_EQ(row.dropped, 1u);
  const std::string text = format_summary(s);
  EXPECT_NE(text.find("main.cpp:12"), std::string::npos) << text;
  EXPECT_NE(text.find("over budget"), std::string::npos) << text;
}

// A group whose tasks spent more than 5% away from its budget says why, from its plans'
// forecasts; one within 5% says nothing.
TEST(RunSummary, AGroupFarFromItsBudgetSaysWhy) {
  test::FixedPlatform cpu{"cpu", "cpu", 1};
  test::FixedTask t1(1, test::kInit, {});
  Recorder rec;
  const Candidate c[] = {{&cpu, {}}};
  t1.timing().energy_j = 10.0;
  t1.timing().energy_source = "model";
  rec.task_submitted(t1, {}, c, 0, "dynperf");
  rec.task_started(t1, cpu, 0);
  rec.task_finished(t1, cpu, 0, false);
  RunRecord run = rec.snapshot();
  auto why = [&](double budget_j, double accurate_j, double floor_j, double forecast_j,
                 const char* step = "fastest") {
    GroupReport g;
    g.step = step;
    g.budget_j = budget_j;
    g.accurate_j = accurate_j;
    g.floor_j = floor_j;
    g.forecast_j = forecast_j;
    g.tasks = {{1, Quality::Accurate}};
    run.groups = {g};
    return summarize(run).groups.at(0).off_budget;
  };
  EXPECT_EQ(why(10.4, 12, 5, 10), "");
  EXPECT_EQ(why(8, 12, 9, 9),
            "spent 25% over the budget: the budget is below the least the group could spend by "
            "the forecasts (every task approximate or dropped) 9.000 J");
  EXPECT_EQ(why(20, 11, 5, 11),
            "spent 50% under the budget: the budget is above the accurate plan's forecast "
            "11.000 J: not binding");
  // Binding on the way (the first measurements said so), not in the end.
  EXPECT_EQ(why(20, 11, 5, 12.5, "approximate"),
            "spent 50% under the budget: the budget is above the accurate plan's forecast "
            "11.000 J; the forecasts of the tasks' energy were 20% over what they spent");
  EXPECT_EQ(why(9, 12, 5, 8),
            "spent 11% over the budget: the forecasts of the tasks' energy were 25% under what "
            "they spent");
  EXPECT_EQ(why(0, 12, 5, 8).rfind("spent 10.000 J of a budget of 0: the budget is below", 0), 0u);
  EXPECT_NE(format_summary(summarize(run)).find("\ngroup 0: spent 10.000 J of a budget of 0"),
            std::string::npos)
      << format_summary(summarize(run));
  GroupReport ratio;  // no budget: nothing to miss
  ratio.accurate_ratio = 0.5;
  ratio.tasks = {{1, Quality::Accurate}};
  run.groups = {ratio};
  EXPECT_EQ(summarize(run).groups.at(0).off_budget, "");
}

}  // namespace
}  // namespace cei::rt::trace

namespace cei::rt::trace {
namespace {

void two_versions(void* const*) {}
const NativeVersion kTwo[] = {{"blas", &two_versions}, {"loops", &two_versions}};
const CeInfo kGemm{"gemm", "CholeskyCEI", false, nullptr, 0, nullptr, kTwo, 2, nullptr};

// Which native version ran how often, per CE and platform, from the version each task reported.
TEST(RunSummary, SaysWhichVersionRanHowOften) {
  test::FixedPlatform cpu{"cpu", "cpu", 2};
  Recorder rec;
  const Candidate c[] = {{&cpu, {}}};
  for (std::uint64_t id = 1; id <= 4; ++id) {
    test::FixedTask t(id, kGemm, {});
    t.timing().version_index = id == 2 ? 1 : 0;
    rec.task_submitted(t, {}, c, 0, "dynperf");
    rec.task_started(t, cpu, 0);
    rec.task_finished(t, cpu, 0, false);
  }
  const std::string text = format_summary(summarize(rec.snapshot()));
  EXPECT_NE(text.find("versions: CholeskyCEI::gemm on cpu: blas 3, loops 1\n"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace cei::rt::trace
