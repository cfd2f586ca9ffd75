#include <cei/rt/trace/run_record.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <thread>

namespace cei::rt::trace {
namespace {

PlatformRecord describe(const Platform& p) {
  return {p.name(), p.kind(), p.workers(), p.prices()};
}

std::vector<DataUse> data_uses(const Task& t) {
  std::vector<DataUse> uses;
  for (const TaskArg& a : t.args()) {
    if (a.in) uses.push_back({data_name(*a.in), Dir::In, a.in->bytes(), a.in->datum_id()});
    if (a.out) uses.push_back({data_name(*a.out), Dir::Out, a.out->bytes(), a.out->datum_id()});
  }
  return uses;
}

// "matmul", "opencl"; "blur_fast (approximate)", "opencl (approximate)"; "dropped".
std::string implementation(const Task& t) {
  const CeInfo& ce = t.ce();
  const int version_index = t.timing().version_index;
  if (t.quality() == Quality::Dropped) return "dropped";
  const char* suffix = t.quality() == Quality::Approximate ? kApproximateSuffix : "";
  if (version_index >= 0 && static_cast<std::size_t>(version_index) < ce.nversions)
    return ce.versions[version_index].declaring_class + std::string(suffix);
  return ce.opencl || ce.opencl_approximate ? "opencl" + std::string(suffix) : "";
}

// Field by field: GCC 12 at -O3 took the string of an aggregate temporary for uninitialized
// (-Werror=maybe-uninitialized in the Release build).
MembershipRecord membership(const Platform& p, bool lost, bool joined) {
  MembershipRecord m;
  m.platform = p.name();
  m.lost = lost;
  m.at = Clock::now();
  m.joined = joined;
  return m;
}
}  // namespace

const TaskRecord* RunRecord::find_task(std::uint64_t id) const {
  auto it = std::lower_bound(tasks.begin(), tasks.end(), id,
                             [](const TaskRecord& t, std::uint64_t i) { return t.id < i; });
  return it != tasks.end() && it->id == id ? &*it : nullptr;
}

const PlatformRecord* RunRecord::find_platform(const std::string& name) const {
  for (const auto& p : platforms)
    if (p.name == name) return &p;
  return nullptr;
}

double RunRecord::makespan_s() const {
  bool any = false;
  Clock::time_point first{}, last{};
  auto see = [&](Clock::time_point a, Clock::time_point b) {
    if (!any) first = a, last = b, any = true;
    first = std::min(first, a);
    last = std::max(last, b);
  };
  for (const auto& t : tasks)
    if (t.finished) see(std::min(t.submitted, t.start), t.end);
  for (const auto& x : transfers) see(x.start, x.end);
  return any ? std::chrono::duration<double>(last - first).count() : 0.0;
}

Recorder::Recorder(Clock::time_point origin) : origin_(origin) {}

void Recorder::push(Event e) {
  const std::uint64_t seq = seq_.fetch_add(1, std::memory_order_relaxed);
  Shard& s = shards_[std::hash<std::thread::id>{}(std::this_thread::get_id()) % shards_.size()];
  std::lock_guard lock(s.mutex);
  s.events.push_back({seq, std::move(e)});
}

void Recorder::task_submitted(const Task& t, std::span<const Dependency> deps,
                              std::span<const Candidate> candidates, std::size_t chosen,
                              const char* policy) {
  Submitted s;
  TaskRecord& r = s.task;
  r.id = t.id();
  r.ce = t.ce().name;
  r.interface_name = t.ce().interface_name;
  r.native_versions = t.ce().nversions;
  r.data = data_uses(t);
  r.deps.assign(deps.begin(), deps.end());
  for (const Candidate& c : candidates) {
    r.forecasts.push_back({c.platform->name(), c.forecast});
    s.candidates.push_back(describe(*c.platform));
  }
  if (chosen < candidates.size()) {
    r.chosen = static_cast<int>(chosen);
    r.platform = candidates[chosen].platform->name();
  }
  r.policy = policy ? policy : "";
  r.submitted = Clock::now();
  push(std::move(s));
}

void Recorder::task_started(const Task& t, const Platform& p, int lane) {
  push(Started{t.id(), describe(p), lane, Clock::now()});
}

void Recorder::task_finished(const Task& t, const Platform& p, int lane, bool failed) {
  const Task::Timing& timing = t.timing();
  push(Finished{t.id(), describe(p), lane, failed, Clock::now(), timing, implementation(t),
                data_uses(t)});
}

void Recorder::transfer(const TransferEvent& e) {
  push(Transferred{{e.platform->name(), e.task, e.version, e.bytes, e.to_device, e.start, e.end,
                    e.from ? e.from->name() : ""},
                   describe(*e.platform)});
}

void Recorder::task_replaced(const Task& t, const Platform& from, const Platform& to, double lag) {
  push(Replaced{{t.id(), from.name(), to.name(), lag, Clock::now()}, describe(from)});
}

void Recorder::platform_membership(const Platform& p, bool lost) {
  push(Membership{membership(p, lost, false), describe(p)});
}

void Recorder::platform_joined(const Platform& p) {
  push(Membership{membership(p, false, true), describe(p)});
}

void Recorder::task_energy(std::uint64_t task, const Platform&, double joules, const char* source) {
  push(Measured{task, joules, source});
}

void Recorder::platform_energy(const Platform& p, const PlatformEnergy& e) {
  push(MeterRecord{p.name(), e.source, e.tasks_j, e.idle_j, e.pending_j, e.total_j, e.seconds});
}

void Recorder::group_closed(const GroupReport& g) {
  push(g);
}

RunRecord Recorder::snapshot() const {
  std::vector<const Sequenced*> events;
  std::vector<std::unique_lock<std::mutex>> locks;
  for (const Shard& s : shards_) {
    locks.emplace_back(s.mutex);
    for (const Sequenced& e : s.events) events.push_back(&e);
  }
  std::sort(events.begin(), events.end(),
            [](const Sequenced* a, const Sequenced* b) { return a->seq < b->seq; });

  RunRecord run;
  run.origin = origin_;
  auto see_platform = [&](const PlatformRecord& p) {
    if (!run.find_platform(p.name)) run.platforms.push_back(p);
  };
  std::map<std::uint64_t, TaskRecord> tasks;
  // A meter's figure may come before the task's finish (which carries its Timing): added after.
  std::map<std::uint64_t, Measured> measured;
  for (const Sequenced* e : events) {
    if (auto* s = std::get_if<Submitted>(&e->event)) {
      for (const auto& p : s->candidates) see_platform(p);
      TaskRecord& r = tasks[s->task.id];
      r = s->task;  // a task is submitted before it starts; nothing earlier to keep
    } else if (auto* s = std::get_if<Started>(&e->event)) {
      see_platform(s->platform);
      TaskRecord& r = tasks[s->task];
      r.id = s->task;
      r.started = true;
      r.platform = s->platform.name;
      r.lane = s->lane;
      r.start = s->at;
    } else if (auto* f = std::get_if<Finished>(&e->event)) {
      see_platform(f->platform);
      TaskRecord& r = tasks[f->task];
      r.id = f->task;
      r.finished = true;
      r.failed = f->failed;
      r.platform = f->platform.name;
      r.lane = f->lane;
      r.timing = f->timing;
      r.implementation = f->implementation;
      // The platform's own clock readings are closer to the work than the callbacks'.
      r.start = f->timing.start != Clock::time_point{} ? f->timing.start
                : r.started                            ? r.start
                                                       : f->at;
      r.end = f->timing.end != Clock::time_point{} ? f->timing.end : f->at;
      r.started = true;
      for (const DataUse& now : f->data)
        for (DataUse& d : r.data)
          if (d.dir == now.dir && d.version == now.version) d.bytes = now.bytes;
    } else if (auto* x = std::get_if<Transferred>(&e->event)) {
      see_platform(x->platform);
      run.transfers.push_back(x->transfer);
    } else if (auto* r = std::get_if<Replaced>(&e->event)) {
      see_platform(r->from);
      run.replacements.push_back(r->replacement);
    } else if (auto* m = std::get_if<Measured>(&e->event)) {
      auto [it, fresh] = measured.try_emplace(m->task, *m);
      if (!fresh) it->second.joules += m->joules;  // each run of the task spent its own
    } else if (auto* a = std::get_if<MeterRecord>(&e->event)) {
      auto it = std::find_if(run.meters.begin(), run.meters.end(),
                             [&](const MeterRecord& r) { return r.platform == a->platform; });
      if (it == run.meters.end())
        run.meters.push_back(*a);
      else
        *it = *a;  // the later account covers the earlier one
    } else if (auto* c = std::get_if<Membership>(&e->event)) {
      see_platform(c->platform);
      run.memberships.push_back(c->change);
    } else if (auto* g = std::get_if<GroupReport>(&e->event)) {
      run.groups.push_back(*g);
    }
  }
  for (const auto& [id, m] : measured) {
    auto it = tasks.find(id);
    if (it == tasks.end()) continue;
    it->second.timing.energy_j += m.joules;
    if (!it->second.timing.energy_source) it->second.timing.energy_source = m.source;
  }
  run.tasks.reserve(tasks.size());
  for (auto& [id, r] : tasks) run.tasks.push_back(std::move(r));
  std::stable_sort(run.transfers.begin(), run.transfers.end(),
                   [](const auto& a, const auto& b) { return a.start < b.start; });
  return run;
}

void Recorder::run_finished() {
  const RunRecord run = snapshot();
  for (const Sink& s : sinks_) s(run);
}

}  // namespace cei::rt::trace
