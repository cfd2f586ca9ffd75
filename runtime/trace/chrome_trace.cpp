#include <cei/rt/trace/chrome_trace.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace cei::rt::trace {
namespace {

using nlohmann::json;

const char* lane_word(const std::string& kind) {
  if (kind == "opencl") return "queue";
  if (kind == "remote") return "slot";
  return "worker";
}

json forecast_json(const PlatformForecast& pf) {
  const Forecast& f = pf.forecast;
  return {{"platform", pf.platform},
          {"feasible", f.feasible},
          {"end_s", f.end_s},
          {"exec_s", f.exec_s},
          {"transfer_s", f.transfer_s},
          {"energy_j", f.energy_j},
          {"cost", f.cost},
          {"time_from", source_name(f.time_source)},
          {"energy_from", source_name(f.energy_source)},
          {"cost_from", source_name(f.cost_source)}};
}

json task_args(const TaskRecord& t) {
  json data = json::array();
  for (const DataUse& d : t.data)
    data.push_back(
        {{"version", d.version}, {"dir", d.dir == Dir::In ? "in" : "out"}, {"bytes", d.bytes}});
  json forecasts = json::array();
  for (const auto& f : t.forecasts) forecasts.push_back(forecast_json(f));
  return {{"task", t.id},
          {"ce", t.qualified_ce()},
          {"implementation", t.implementation},
          {"data", std::move(data)},
          {"forecasts", std::move(forecasts)},
          {"chosen", t.chosen >= 0 ? json(t.forecasts[t.chosen].platform) : json(nullptr)},
          {"policy", t.policy},
          {"failed", t.failed},
          {"energy_j", t.timing.energy_j},
          {"bytes_in", t.timing.bytes_in},
          {"bytes_out", t.timing.bytes_out}};
}

class Writer {
 public:
  explicit Writer(const RunRecord& run) : run_(run) {
    for (std::size_t i = 0; i < run.platforms.size(); ++i)
      pid_[run.platforms[i].name] = static_cast<int>(i) + 1;
  }

  json events() {
    json ev = json::array();
    for (std::size_t i = 0; i < run_.platforms.size(); ++i) {
      const auto& p = run_.platforms[i];
      const int pid = pid_.at(p.name);
      ev.push_back(meta("process_name", pid, -1, p.name + " (" + p.kind + ")"));
      ev.push_back({{"ph", "M"},
                    {"name", "process_sort_index"},
                    {"pid", pid},
                    {"args", {{"sort_index", i}}}});
    }
    std::map<std::pair<int, int>, std::string> tracks;
    // A lane's extra tracks sit right under it, the transfers under every lane: thread ids alone
    // would put "slot 0 (2)" after the transfer tracks.
    std::map<std::pair<int, int>, long> order;
    // Slices on one track must nest: tasks that overlap on one lane (kernels of an out-of-order
    // queue running at once) take the first of that lane's tracks that is free.
    std::vector<const TaskRecord*> by_start;
    for (const TaskRecord& t : run_.tasks)
      if (t.started && pid_.contains(t.platform)) by_start.push_back(&t);
    std::stable_sort(by_start.begin(), by_start.end(),
                     [](const TaskRecord* a, const TaskRecord* b) { return a->start < b->start; });
    std::map<std::pair<int, int>, std::vector<Clock::time_point>> lane_busy_until;
    for (const TaskRecord* t : by_start) {
      const int pid = pid_.at(t->platform), lane = std::max(t->lane, 0);
      auto& busy = lane_busy_until[{pid, lane}];
      std::size_t k = 0;
      while (k < busy.size() && busy[k] > t->start) ++k;
      if (k == busy.size()) busy.push_back(t->end);
      busy[k] = t->end;
      const int extra = std::min(static_cast<int>(k), kOverlapTracksPerLane - 1);
      const int tid = k == 0 ? lane : kOverlapTrackBase + lane * kOverlapTracksPerLane + extra;
      tid_[t->id] = tid;
      const std::string& kind = run_.find_platform(t->platform)->kind;
      tracks[{pid, tid}] = std::string(lane_word(kind)) + " " + std::to_string(lane) +
                           (k == 0 ? "" : " (" + std::to_string(k + 1) + ")");
      order[{pid, tid}] = static_cast<long>(lane) * kOverlapTracksPerLane + (k == 0 ? 0 : extra);
      ev.push_back(slice(t->ce, "task", pid, tid, t->start, t->end, task_args(*t)));
    }
    std::map<int, std::vector<Clock::time_point>> transfer_tracks_busy_until;
    for (const TransferRecord& x : run_.transfers) {
      const int pid = pid_.at(x.platform);
      // Slices on one track must nest; overlapping transfers go to the first free track.
      auto& busy = transfer_tracks_busy_until[pid];
      std::size_t k = 0;
      while (k < busy.size() && busy[k] > x.start) ++k;
      if (k == busy.size()) busy.push_back(x.end);
      busy[k] = x.end;
      const int tid = kTransferTrackBase + static_cast<int>(k);
      tracks[{pid, tid}] = "transfers " + std::to_string(k);
      order[{pid, tid}] = kTransferSortBase + static_cast<long>(k);
      const std::string name = x.version + (x.from.empty() ? "" : " " + x.from) + " → " +
                               (x.to_device ? x.platform : "host");
      json args{{"version", x.version},
                {"bytes", x.bytes},
                {"direction", x.to_device ? "to_device" : "to_host"},
                {"task", x.task}};
      if (!x.from.empty()) args["from"] = x.from;  // node to node: on the receiving node's track
      ev.push_back(slice(name, "transfer", pid, tid, x.start, x.end, std::move(args)));
    }
    // Second thoughts: an instant on the platform that gave the task back.
    for (const ReplacementRecord& r : run_.replacements)
      ev.push_back({{"ph", "i"},
                    {"s", "p"},
                    {"name", "re-placed → " + r.to},
                    {"cat", "second_thoughts"},
                    {"pid", pid_.at(r.from)},
                    {"tid", 0},
                    {"ts", us(r.at)},
                    {"args", {{"task", r.task}, {"from", r.from}, {"to", r.to}, {"lag", r.lag}}}});
    // A platform lost or admitted again: an instant on its process.
    for (const MembershipRecord& m : run_.memberships)
      ev.push_back({{"ph", "i"},
                    {"s", "p"},
                    {"name", m.joined ? "joined"
                             : m.lost ? "lost"
                                      : "re-admitted"},
                    {"cat", "membership"},
                    {"pid", pid_.at(m.platform)},
                    {"tid", 0},
                    {"ts", us(m.at)},
                    {"args", {{"platform", m.platform}}}});
    for (const auto& [track, name] : tracks) {
      ev.push_back(meta("thread_name", track.first, track.second, name));
      ev.push_back({{"ph", "M"},
                    {"name", "thread_sort_index"},
                    {"pid", track.first},
                    {"tid", track.second},
                    {"args", {{"sort_index", order.at(track)}}}});
    }
    add_flows(ev);
    return ev;
  }

 private:
  double us(Clock::time_point t) const { return run_.seconds(t) * 1e6; }

  json meta(const char* what, int pid, int tid, const std::string& name) const {
    json m = {{"ph", "M"}, {"name", what}, {"pid", pid}, {"args", {{"name", name}}}};
    if (tid >= 0) m["tid"] = tid;
    return m;
  }

  json slice(const std::string& name, const char* cat, int pid, int tid, Clock::time_point a,
             Clock::time_point b, json args) const {
    return {{"ph", "X"},
            {"name", name},
            {"cat", cat},
            {"pid", pid},
            {"tid", tid},
            {"ts", us(a)},
            {"dur", std::max(0.0, us(b) - us(a))},
            {"args", std::move(args)}};
  }

  // One arrow per dependency edge, from the producer's slice to the consumer's.
  void add_flows(json& ev) const {
    std::uint64_t id = 0;
    for (const TaskRecord& consumer : run_.tasks) {
      if (!consumer.started) continue;
      for (const Dependency& d : consumer.deps) {
        const TaskRecord* producer = run_.find_task(d.producer_task);
        if (!producer || !producer->started) continue;
        ++id;
        ev.push_back({{"ph", "s"},
                      {"id", id},
                      {"name", d.version},
                      {"cat", "dependency"},
                      {"pid", pid_.at(producer->platform)},
                      {"tid", tid_.at(producer->id)},
                      {"ts", us(producer->start)}});
        ev.push_back({{"ph", "f"},
                      {"bp", "e"},
                      {"id", id},
                      {"name", d.version},
                      {"cat", "dependency"},
                      {"pid", pid_.at(consumer.platform)},
                      {"tid", tid_.at(consumer.id)},
                      {"ts", us(consumer.start)}});
      }
    }
  }

  const RunRecord& run_;
  std::map<std::string, int> pid_;
  std::map<std::uint64_t, int> tid_;  // each started task's track
};

}  // namespace

void write_chrome_trace(const RunRecord& run, std::ostream& out) {
  std::string policy;
  for (const auto& t : run.tasks)
    if (!t.policy.empty()) policy = t.policy;
  json doc = {{"traceEvents", Writer(run).events()},
              {"displayTimeUnit", "ms"},
              {"otherData",
               {{"producer", "cei"},
                {"policy", policy},
                {"tasks", run.tasks.size()},
                {"replaced", run.replacements.size()},
                {"makespan_s", run.makespan_s()}}}};
  out << doc.dump(1) << '\n';
}

}  // namespace cei::rt::trace
