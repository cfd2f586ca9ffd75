#include "timeline_model.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace cei::trace_tool {

using nlohmann::json;

Timeline load_timeline(const json& trace) {
  const json& events = trace.is_array() ? trace : trace.value("traceEvents", json::array());
  if (!events.is_array() || events.empty())
    throw std::runtime_error("no trace events (expected {\"traceEvents\": [...]})");

  std::map<int, std::string> process_name;
  std::map<int, long> process_order;
  std::map<std::pair<int, int>, std::string> thread_name;
  std::map<std::pair<int, int>, long> thread_order;  // thread_sort_index, where given
  std::map<std::pair<int, int>, std::vector<Slice>> slices;
  Timeline tl;
  double begin_us = 0;
  bool any = false;
  for (const json& e : events) {
    const std::string ph = e.value("ph", "");
    const int pid = e.value("pid", 0), tid = e.value("tid", 0);
    const json args = e.value("args", json::object());
    if (ph == "M") {
      const std::string what = e.value("name", "");
      if (what == "process_name") process_name[pid] = args.value("name", "");
      if (what == "process_sort_index") process_order[pid] = args.value("sort_index", 0L);
      if (what == "thread_name") thread_name[{pid, tid}] = args.value("name", "");
      if (what == "thread_sort_index") thread_order[{pid, tid}] = args.value("sort_index", 0L);
      continue;
    }
    if (ph != "X") continue;
    Slice s;
    s.start_us = e.value("ts", 0.0);
    s.dur_us = e.value("dur", 0.0);
    s.name = e.value("name", "");
    s.transfer = e.value("cat", "") == "transfer";
    s.to_device = args.value("direction", "") == "to_device";
    s.failed = args.value("failed", false);
    if (!s.transfer) {
      ++tl.tasks;
      if (std::find(tl.ces.begin(), tl.ces.end(), s.name) == tl.ces.end()) tl.ces.push_back(s.name);
    }
    begin_us = any ? std::min(begin_us, s.start_us) : s.start_us;
    tl.end_us = any ? std::max(tl.end_us, s.start_us + s.dur_us) : s.start_us + s.dur_us;
    any = true;
    slices[{pid, tid}].push_back(std::move(s));
  }
  if (!any) throw std::runtime_error("the trace holds no complete (\"X\") events");
  // Time zero is the trace's origin unless that lies before every slice by far (foreign traces
  // with absolute timestamps); then it is the first slice.
  const double zero = begin_us > 0.5 * tl.end_us ? begin_us : 0.0;
  tl.end_us -= zero;

  for (auto& [key, list] : slices) {
    Lane lane;
    lane.pid = key.first;
    lane.tid = key.second;
    lane.process = process_name.contains(lane.pid) ? process_name[lane.pid]
                                                   : "process " + std::to_string(lane.pid);
    lane.thread =
        thread_name.contains(key) ? thread_name[key] : "thread " + std::to_string(lane.tid);
    for (Slice& s : list) s.start_us -= zero;
    lane.slices = std::move(list);
    tl.lanes.push_back(std::move(lane));
  }
  std::stable_sort(tl.lanes.begin(), tl.lanes.end(), [&](const Lane& a, const Lane& b) {
    const long oa = process_order.contains(a.pid) ? process_order[a.pid] : a.pid;
    const long ob = process_order.contains(b.pid) ? process_order[b.pid] : b.pid;
    const long ta = thread_order.contains({a.pid, a.tid}) ? thread_order[{a.pid, a.tid}] : a.tid;
    const long tb = thread_order.contains({b.pid, b.tid}) ? thread_order[{b.pid, b.tid}] : b.tid;
    return std::tie(oa, a.pid, ta, a.tid) < std::tie(ob, b.pid, tb, b.tid);
  });
  if (trace.is_object() && trace.contains("otherData"))
    tl.policy = trace["otherData"].value("policy", "");
  return tl;
}

}  // namespace cei::trace_tool
