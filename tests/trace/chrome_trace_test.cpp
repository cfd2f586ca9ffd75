#include <cei/rt/trace/chrome_trace.hpp>

#include "known_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

namespace cei::rt::trace {
namespace {

using nlohmann::json;
using test::KnownRun;

json trace_of_known_run() {
  KnownRun run;
  Recorder rec(run.origin);
  std::ostringstream out;
  rec.on_finish([&](const RunRecord& r) { write_chrome_trace(r, out); });
  run.play(rec);
  return json::parse(out.str());
}

std::map<int, std::string> process_names(const json& ev) {
  std::map<int, std::string> names;
  for (const auto& e : ev)
    if (e["ph"] == "M" && e["name"] == "process_name")
      names[e["pid"].get<int>()] = e["args"]["name"].get<std::string>();
  return names;
}

TEST(ChromeTrace, EveryTaskIsASliceOnItsPlatformWithTimesAndForecasts) {
  const json doc = trace_of_known_run();
  const json& ev = doc.at("traceEvents");
  const auto procs = process_names(ev);
  ASSERT_EQ(procs.size(), 2u);

  std::map<std::uint64_t, json> tasks;
  for (const auto& e : ev)
    if (e["ph"] == "X" && e["cat"] == "task") tasks[e["args"]["task"].get<std::uint64_t>()] = e;
  ASSERT_EQ(tasks.size(), 4u);
  const char* platform[] = {"cpu (cpu)", "cpu (cpu)", "opencl0 (opencl)", "cpu (cpu)"};
  const char* ce[] = {"init", "init", "multiply", "multiply"};
  for (std::uint64_t id = 1; id <= 4; ++id) {
    const json& e = tasks.at(id);
    EXPECT_EQ(procs.at(e["pid"].get<int>()), platform[id - 1]) << "task " << id;
    EXPECT_EQ(e["name"], ce[id - 1]);
    EXPECT_NEAR(e["ts"].get<double>(), KnownRun::kTimes[id - 1][0] * 1e3, 1e-3);
    EXPECT_NEAR(e["dur"].get<double>(),
                (KnownRun::kTimes[id - 1][1] - KnownRun::kTimes[id - 1][0]) * 1e3, 1e-3);
    const json& f = e["args"]["forecasts"];
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0]["platform"], "cpu");
    EXPECT_EQ(f[1]["platform"], "opencl0");
    EXPECT_NEAR(f[0]["end_s"].get<double>(), 0.05 * id, 1e-12);
    EXPECT_EQ(f[0]["time_from"], "regression");
    EXPECT_EQ(f[1]["energy_from"], "default");
    EXPECT_EQ(e["args"]["policy"], "dynperf");
    EXPECT_EQ(e["args"]["chosen"], id == 3 ? "opencl0" : "cpu");
  }
  EXPECT_EQ(tasks.at(3)["args"]["implementation"], "opencl");
  const json& data = tasks.at(3)["args"]["data"];
  ASSERT_EQ(data.size(), 3u);
  EXPECT_EQ(data[2]["version"], "d3v1");
  EXPECT_EQ(data[2]["dir"], "out");
  EXPECT_EQ(data[2]["bytes"], 16000);
}

TEST(ChromeTrace, TracksAreNamedAndTasksOnOneLaneShareATrack) {
  const json ev = trace_of_known_run().at("traceEvents");
  std::set<std::pair<int, int>> named;
  for (const auto& e : ev)
    if (e["ph"] == "M" && e["name"] == "thread_name")
      named.insert({e["pid"].get<int>(), e["tid"].get<int>()});
  std::set<std::pair<int, int>> used;
  for (const auto& e : ev)
    if (e["ph"] == "X") used.insert({e["pid"].get<int>(), e["tid"].get<int>()});
  EXPECT_EQ(named, used);
  // cpu lanes 0 and 1, the device queue, and two tracks for the overlapping transfers.
  EXPECT_EQ(used.size(), 5u);
}

TEST(ChromeTrace, TransfersCarryBytesAndDirectionAndNeverOverlapOnATrack) {
  const json ev = trace_of_known_run().at("traceEvents");
  std::vector<json> transfers;
  for (const auto& e : ev)
    if (e["ph"] == "X" && e["cat"] == "transfer") transfers.push_back(e);
  ASSERT_EQ(transfers.size(), 3u);
  EXPECT_EQ(transfers[0]["args"]["bytes"], 4000);
  EXPECT_EQ(transfers[0]["args"]["direction"], "to_device");
  EXPECT_EQ(transfers[2]["args"]["direction"], "to_host");
  EXPECT_NE(transfers[0]["tid"], transfers[1]["tid"]);  // they overlap in time
  for (const auto& t : transfers) EXPECT_GE(t["tid"].get<int>(), kTransferTrackBase);
}

// A node's fetch from another node: on the receiving node's transfer track, naming both.
TEST(ChromeTrace, ANodeToNodeTransferNamesWhereItCameFrom) {
  test::FixedPlatform node1{"node1", "remote", 1}, node2{"node2", "remote", 1};
  const auto t0 = Clock::now();
  Recorder rec(t0);
  std::ostringstream out;
  rec.on_finish([&](const RunRecord& r) { write_chrome_trace(r, out); });
  rec.transfer({&node2, 2, "r1v1", 4096, true, t0, t0 + std::chrono::milliseconds(1), &node1});
  rec.run_finished();
  const json ev = json::parse(out.str()).at("traceEvents");
  const auto procs = process_names(ev);
  std::vector<json> transfers;
  for (const auto& e : ev)
    if (e["ph"] == "X" && e["cat"] == "transfer") transfers.push_back(e);
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0]["name"], "r1v1 node1 → node2");
  EXPECT_EQ(transfers[0]["args"]["from"], "node1");
  EXPECT_EQ(transfers[0]["args"]["bytes"], 4096);
  EXPECT_EQ(procs.at(transfers[0]["pid"].get<int>()), "node2 (remote)");
}

TEST(ChromeTrace, FlowArrowsJoinEveryProducerToItsConsumer) {
  const json ev = trace_of_known_run().at("traceEvents");
  std::map<std::uint64_t, json> starts, finishes;
  for (const auto& e : ev) {
    if (e["ph"] == "s") starts[e["id"].get<std::uint64_t>()] = e;
    if (e["ph"] == "f") finishes[e["id"].get<std::uint64_t>()] = e;
  }
  ASSERT_EQ(starts.size(), 4u);  // d1v2, d2v2 into t3; d3v1, d2v2 into t4
  ASSERT_EQ(finishes.size(), 4u);
  std::multiset<std::string> versions;
  for (const auto& [id, s] : starts) {
    ASSERT_TRUE(finishes.contains(id));
    EXPECT_EQ(s["name"], finishes[id]["name"]);
    EXPECT_LE(s["ts"].get<double>(), finishes[id]["ts"].get<double>());
    versions.insert(s["name"].get<std::string>());
  }
  EXPECT_EQ(versions, (std::multiset<std::string>{"d1v2", "d2v2", "d2v2", "d3v1"}));
}

// Kernels of an out-of-order queue that run at once: each overlapping one on a track of its own
// under the queue, so that slices nest; a later kernel goes back to the queue's first track, and
// the dependency arrow starts from the track its producer is on.
TEST(ChromeTrace, TasksThatOverlapOnALaneTakeTracksOfTheirOwn) {
  RunRecord run;
  run.origin = Clock::now();
  run.platforms.push_back({"opencl0", "opencl", 1, {}});
  auto at = [&](int ms) { return run.origin + std::chrono::milliseconds(ms); };
  auto task = [&](std::uint64_t id, int from, int to) {
    TaskRecord t;
    t.id = id;
    t.ce = "k" + std::to_string(id);
    t.platform = "opencl0";
    t.lane = 0;
    t.started = t.finished = true;
    t.start = at(from);
    t.end = at(to);
    return t;
  };
  run.tasks = {task(1, 0, 10), task(2, 2, 6), task(3, 4, 8), task(4, 12, 14)};
  run.tasks[3].deps.push_back({3, "d3v1"});
  std::ostringstream out;
  write_chrome_trace(run, out);
  const json ev = json::parse(out.str()).at("traceEvents");
  std::map<int, std::string> track;
  std::map<std::string, int> tid_of;
  int flow_from = -1, flow_to = -1;
  for (const auto& e : ev) {
    if (e["ph"] == "M" && e["name"] == "thread_name") track[e["tid"]] = e["args"]["name"];
    if (e["ph"] == "X") tid_of[e["name"]] = e["tid"];
    if (e["ph"] == "s") flow_from = e["tid"];
    if (e["ph"] == "f") flow_to = e["tid"];
  }
  EXPECT_EQ(tid_of.at("k1"), 0);
  EXPECT_EQ(tid_of.at("k2"), kOverlapTrackBase + 1);
  EXPECT_EQ(tid_of.at("k3"), kOverlapTrackBase + 2);
  EXPECT_EQ(tid_of.at("k4"), 0);
  EXPECT_EQ(track.at(0), "queue 0");
  EXPECT_EQ(track.at(kOverlapTrackBase + 1), "queue 0 (2)");
  EXPECT_EQ(track.at(kOverlapTrackBase + 2), "queue 0 (3)");
  EXPECT_EQ(flow_from, kOverlapTrackBase + 2);
  EXPECT_EQ(flow_to, 0);
}

// A node's trace read "slot 0, transfers 0, transfers 1, slot 0 (2)": ordered by thread id, a
// lane's extra track came after the transfers. The sort indexes keep it under its lane.
TEST(ChromeTrace, ALanesExtraTracksSortRightUnderItBeforeTheTransfers) {
  RunRecord run;
  run.origin = Clock::now();
  run.platforms.push_back({"node1", "remote", 2, {}});
  auto at = [&](int ms) { return run.origin + std::chrono::milliseconds(ms); };
  auto task = [&](std::uint64_t id, int lane, int from, int to) {
    TaskRecord t;
    t.id = id, t.ce = "k" + std::to_string(id), t.platform = "node1", t.lane = lane;
    t.started = t.finished = true;
    t.start = at(from), t.end = at(to);
    return t;
  };
  run.tasks = {task(1, 0, 0, 10), task(2, 0, 2, 6), task(3, 1, 0, 4)};
  run.transfers.push_back({"node1", 1, "d1v1", 64, true, at(0), at(1)});
  std::ostringstream out;
  write_chrome_trace(run, out);
  std::map<long, std::string> by_order;
  std::map<int, std::string> name;
  const json ev = json::parse(out.str()).at("traceEvents");
  for (const auto& e : ev)
    if (e["ph"] == "M" && e["name"] == "thread_name") name[e["tid"]] = e["args"]["name"];
  for (const auto& e : ev)
    if (e["ph"] == "M" && e["name"] == "thread_sort_index")
      by_order[e["args"]["sort_index"].get<long>()] = name.at(e["tid"]);
  std::vector<std::string> lanes;
  for (const auto& [order, n] : by_order) lanes.push_back(n);
  EXPECT_EQ(lanes, (std::vector<std::string>{"slot 0", "slot 0 (2)", "slot 1", "transfers 0"}));
}

}  // namespace
}  // namespace cei::rt::trace
