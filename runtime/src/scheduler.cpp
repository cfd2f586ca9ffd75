#include "scheduler.hpp"

#include "requirements_check.hpp"
#include "runtime_core.hpp"
#include "significance.hpp"

#include <cei/rt/trace/log.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

namespace cei::rt {

namespace {

bool in_process(const Platform& p) {
  return p.capabilities().has(Capabilities::InProcess);
}

std::string ce_name(const CeInfo& ce) {
  return std::string(ce.interface_name) + "::" + ce.name;
}

bool has_native(const CeInfo& ce, bool approximate) {
  for (std::size_t v = 0; v < ce.nversions; ++v)
    if (ce.versions[v].approximate == approximate) return true;
  return false;
}

}  // namespace

// Whether p has the version a task of quality q runs: for Accurate, whatever can_run() said
// unless all the CE offers of p's kind is an approximation. A dropped task runs nothing, on a
// platform whose workers publish its inout values as they were (the CPU's).
bool serves(const Platform& p, const CeInfo& ce, Quality q) {
  const Capabilities caps = p.capabilities();
  if (caps.has(Capabilities::Kernels)) {
    if (q == Quality::Accurate) return ce.opencl || !ce.opencl_approximate;
    return q == Quality::Approximate && ce.opencl_approximate;
  }
  if (caps.has(Capabilities::PicksVersion)) {
    if (q == Quality::Accurate) return ce.nversions == 0 || has_native(ce, false);
    return q == Quality::Dropped || has_native(ce, true);
  }
  // A platform that runs version 0 or the kernel (a node) runs the program's own result only:
  // the registry lists accurate versions first.
  return q == Quality::Accurate && (ce.nversions == 0 || !ce.versions[0].approximate);
}

bool Scheduler::fits(Platform* p, const TaskImpl& t, const Placement& pl, bool spare_avoided) {
  if (pl.only) return p == pl.only;
  return p != pl.exclude && (!spare_avoided || p != pl.avoid) &&
         !(pl.isolated_only && in_process(*p)) && p->can_run(t.ce()) &&
         serves(*p, t.ce(), t.quality()) && !is_lost(p);
}

void Scheduler::decide_quality(TaskImpl& t) {
  const CeInfo& ce = t.ce();
  t.significance_ = significance_of(ce, t.args());
  const auto servable = [&](Quality q) {
    for (Platform* p : core_.platforms)
      if (p->can_run(ce) && serves(*p, ce, q) && !is_lost(p)) return true;
    return false;
  };
  const std::optional<Quality> asked = core_.policy->quality(t);
  // The significance rule: 0 runs an approximation, or nothing when the CE is droppable and has
  // none; anything above 0 runs accurate.
  Quality q = asked.value_or(t.significance_ == 0 ? Quality::Approximate : Quality::Accurate);
  // Accurate, the common case, asks the platforms nothing: fits() finds those that serve it.
  if (q != Quality::Accurate) {
    if (!asked && q == Quality::Approximate && !servable(q) && ce.droppable) q = Quality::Dropped;
    if ((q == Quality::Dropped && !ce.droppable) || !servable(q)) q = Quality::Accurate;
  }
  t.quality_ = q;
  t.quality_decided = true;
}

std::size_t Scheduler::count_fitting(const TaskImpl& t, const Placement& pl, bool& spare_avoided,
                                     Platform*& first) {
  for (const bool spare : {true, false}) {
    if (!spare && !pl.avoid) break;
    std::size_t n = 0;
    for (Platform* p : core_.platforms)
      if (fits(p, t, pl, spare) && n++ == 0) first = p;
    spare_avoided = spare;
    if (n > 0) return n;
  }
  first = nullptr;
  return 0;
}

bool Scheduler::dispatch(TaskImpl& t, const Placement& pl) {
  if (t.explores) end_exploration(t);  // a retry or an orphan: that measurement will not come
  if (t.explored_version >= 0) end_version_exploration(t);
  if (!t.requirements_checked) {
    // [[cei::requires]] reads the arguments as the task will run on them: those of earlier tasks
    // once they are ready. A broken one fails the task here, before any platform sees it.
    // One whose value a requirement reads but a device or node keeps (not only its shape, which
    // the replica knows) is brought to the host first.
    const Requirements r = check_requirements(t, t.requirements_fetched);
    if (r == Requirements::Unreadable) {
      if (place_when_ready(t, pl)) return true;
      t.requirements_fetched = true;
      Placement later = pl;
      later.retry_of = nullptr;  // the caller's: gone by then
      bring_inputs_to_host(t, [this, self = t.self, later] { dispatch(*impl(self.get()), later); });
      return true;
    }
    t.requirements_checked = true;
    if (r == Requirements::Broken) return true;
  }
  if (!t.quality_decided) {
    // A significance reads the task's arguments: those of earlier tasks once they are ready (one
    // over scalar parameters at once).
    if (t.ce().significance && !significance_if_readable(t.ce(), t.args()) &&
        place_when_ready(t, pl))
      return true;
    decide_quality(t);
  }
  const CeInfo& ce = t.ce();
  if (!pl.only && core_.sole_opening()) core_.wait_background();
  bool spare = true;
  Platform* chosen = nullptr;
  std::size_t able = count_fitting(t, pl, spare, chosen);
  // None of the platforms added so far can run it: the ones still to open may.
  if (able == 0 && !pl.only && core_.opening()) {
    core_.open_all(Runtime::instance());
    able = count_fitting(t, pl, spare, chosen);
  }
  // A choice made once the inputs are ready sees the queues the task will meet, and its rank.
  if (!pl.only && able > 1 && core_.sees_graph() && place_when_ready(t, pl)) return true;
  const bool observed = observing();
  t.forecast_exec_s = 0;
  if (able > 1 || (able == 1 && observed)) {  // only a choice (or an observer) needs forecasts
    thread_local std::vector<Candidate> candidates;
    candidates.clear();
    const std::size_t opening = forecast(t, pl, spare, candidates);
    std::size_t pick = candidates.size() > 1 ? core_.policy->choose(ce, candidates) : 0;
    if (!pl.only && !pl.again && candidates.size() > 1 && core_.policy->by_forecasts() &&
        !explore_or_hold(t, candidates, pick, pl.resumed))
      return false;
    chosen = candidates.empty() ? nullptr : candidates[pick].platform;
    if (chosen && observed) core_.observe_submitted(t, candidates, pick);
    // Second thoughts hold the run to the forecast it was placed by; a placement without a
    // choice (a task moved once, a retry's platform) is never revisited. One that had a device
    // still opening as a choice is, when the device opens.
    if (chosen && candidates.size() + opening > 1 && core_.rethinks())
      t.forecast_exec_s = candidates[pick].forecast.exec_s;
  }
  if (pl.retry_of && chosen)
    log().warn("{} (attempt {} of {}): retrying on {}", describe_failure(ce, *pl.retry_of),
               t.retries_done, t.failure().retries + 1, chosen->name());
  const int attempt = t.open_attempt();
  if (!chosen) {
    t.finish(std::make_exception_ptr(std::runtime_error("no platform can run CE " + ce_name(ce))));
    return true;
  }
  t.platform = chosen;
  const Capabilities caps = chosen->capabilities();
  // A platform that may be lost: remember its unsettled tasks, and time them from submission
  // since it does not report their start.
  // The host's cores too when second thoughts may move the task.
  if (caps.has(Capabilities::MayBeLost) || t.forecast_exec_s > 0) track(t);
  if (caps.has(Capabilities::MayBeLost)) start_timeout(t, attempt);
  t.queued_on.store(chosen, std::memory_order_release);
  chosen->submit(t.self);
  return true;
}

std::size_t Scheduler::forecast(TaskImpl& t, const Placement& pl, bool spare_avoided,
                                std::vector<Candidate>& out) {
  bool open = false, opening = false;
  for (Platform* p : core_.platforms) {
    if (!fits(p, t, pl, spare_avoided)) continue;
    Forecast f = p->forecast(t);
    if (!f.feasible && !pl.only) continue;
    out.push_back({p, f});
    (f.opening ? opening : open) = true;
  }
  // No task waits for a device that is still opening while an open platform can run it: given
  // the tasks it would finish first by the time it expected to open, NVIDIA's device (0.27 s to
  // open) held them and, exploring, the tasks of their CE behind them: a first run with the GPU
  // took 5x the time of one without it. Once it opens, the queues of the others are revisited
  // (platform_opened). The user's orders (static, only:<p>) are kept.
  std::size_t left_out = 0;
  if (opening && open && !pl.only && core_.policy->by_forecasts())
    left_out = std::erase_if(out, [](const Candidate& c) { return c.forecast.opening; });
  if (!pl.only && core_.rethinks()) core_.second_thoughts.correct(out, core_.now_s());
  return left_out;
}

void Scheduler::platform_opened(Platform& p) {
  if (!core_.rethinks()) return;
  const std::string why = p.name() + " opened";
  for (Platform* q : core_.platforms)
    if (q != &p) rethink(*q, why.c_str());
}

void Scheduler::rethink(Platform& p, const char* why) {
  if (rethinking_.exchange(true, std::memory_order_acq_rel)) return;  // another thread is at it
  std::vector<TaskPtr> queued;
  {
    std::lock_guard g(tracked_mu_);
    for (TaskImpl* t = tracked_head_; t; t = t->tracked_next)  // newest first
      if (t->platform == &p && t->forecast_exec_s > 0) queued.push_back(t->self);
  }
  if (queued.empty()) {  // a device that opened before the first task, say: nothing to log
    rethinking_.store(false, std::memory_order_release);
    return;
  }
  std::size_t moved = 0, refused = 0;
  std::vector<Candidate> candidates;
  // The CEs (of a quality) the policy kept here: their tasks queued before the one kept wait
  // less, so the policy keeps them too. Tasks of other CEs are still asked about: a cheap task
  // that stays on the CPU says nothing of the costly ones queued before it.
  std::vector<std::pair<const CeInfo*, Quality>> kept;
  for (const TaskPtr& task : queued) {
    TaskImpl& t = *impl(task.get());
    const std::pair<const CeInfo*, Quality> kind{&t.ce(), t.quality()};
    if (std::find(kept.begin(), kept.end(), kind) != kept.end()) continue;
    candidates.clear();
    forecast(t, {}, true, candidates);
    if (candidates.size() < 2) continue;
    Platform* to = candidates[core_.policy->choose(t.ce(), candidates)].platform;
    if (to == &p) {
      kept.push_back(kind);
      if (log().should_log(spdlog::level::debug)) {
        std::string options;
        for (const Candidate& c : candidates)
          options += fmt::format("{}{} end {:.4f}s", options.empty() ? "" : ", ",
                                 c.platform->name(), c.forecast.end_s);
        log().debug("{}: task {} {} and the older ones of its CE stay on {} [{}]",
                    why ? why : "second thoughts", t.id(), ce_name(t.ce()), p.name(), options);
      }
      continue;
    }
    // Refused: begun (a task per worker at most), or a platform that gives nothing back, whose
    // queue is then not walked to its end at every revisit.
    if (!p.withdraw(t)) {
      if (++refused > p.workers()) break;
      continue;
    }
    untrack(t);
    dispatch(t, {.only = to, .again = true});
    core_.observe_replaced(t, p, *to, why ? 0.0 : core_.second_thoughts.lag(p));
    ++moved;
  }
  if (why)
    log().info("{}: {} of the {} task(s) queued on {} placed again", why, moved, queued.size(),
               p.name());
  else
    log().info("{} runs {:.1f}x behind its forecasts: {} of its {} queued task(s) placed again",
               p.name(), core_.second_thoughts.lag(p), moved, queued.size());
  rethinking_.store(false, std::memory_order_release);
}

// Several native versions of the task's quality (the accurate ones; the approximation), bound as
// the task starts: submitted in a batch before any of them ended, the tasks of a first run took
// the versions in turn, and half of a tiled Cholesky's gemm tasks ran its plain-loop version, 4x
// slower than its first. Now an unmeasured version is tried by one task at a time (at most
// kVersionTries), and every other task runs the fastest version measured by the time it starts.
int Scheduler::choose_version(TaskImpl& t, const Platform& p) {
  const CeInfo& ce = t.ce();
  if (ce.nversions <= 1) return 0;
  const bool approximate = t.quality() == Quality::Approximate;
  thread_local std::vector<int> unmeasured;
  unmeasured.clear();
  int first = -1, best = -1, n = 0;
  double best_s = 0;
  Profiles* profiles = core_.profiles.get();
  const double bytes = std::max(t.timing().input_bytes, 0.0);
  for (std::size_t i = 0; i < ce.nversions; ++i) {
    if (ce.versions[i].approximate != approximate) continue;
    const int v = static_cast<int>(i);
    if (n++ == 0) first = v;
    if (!profiles) continue;
    const Prediction pr = profiles->predict(ce, v, p.name(), bytes);
    if (pr.source == Source::Default)
      unmeasured.push_back(v);
    else if (best < 0 || pr.seconds < best_s)
      best = v, best_s = pr.seconds;
  }
  if (n <= 1 || !profiles) return first < 0 ? 0 : first;
  if (!unmeasured.empty()) {
    std::lock_guard g(explore_mu_);
    for (int v : unmeasured) {
      VersionTries& vt = version_tries_[{&ce, &p, v}];
      if (vt.running > 0 || vt.tries >= kVersionTries) continue;
      ++vt.running;
      ++vt.tries;
      t.explored_version = v;
      t.explored_on = &p;
      return v;
    }
  }
  return best >= 0 ? best : first;
}

void Scheduler::end_version_exploration(TaskImpl& t) {
  std::lock_guard g(explore_mu_);
  --version_tries_[{&t.ce(), t.explored_on, t.explored_version}].running;
  t.explored_version = -1;
}

bool Scheduler::retry(TaskImpl& t, const std::exception_ptr& error, Failure how) {
  // The first retry of an ordinary error may stay where it failed (the error may be transient);
  // a crash, or a later retry, goes elsewhere when another platform can take it.
  Placement pl;
  pl.again = true;
  pl.retry_of = &error;
  if (how == Failure::Crash || t.retries_done > 1) pl.avoid = t.platform;
  pl.isolated_only = how == Failure::Crash;
  bool spare = true;
  Platform* first = nullptr;
  const bool any = count_fitting(t, pl, spare, first) > 0;
  if (pl.isolated_only) {
    std::string local;  // the platforms a crash keeps it from
    for (Platform* p : core_.platforms)
      if (in_process(*p) && p->can_run(t.ce()) && !is_lost(p))
        local += (local.empty() ? "" : ", ") + p->name();
    if (!local.empty())
      log().warn(
          "{}: not retried on {} (CEs run there inside this program's process, where the same "
          "crash would end the program){}",
          describe_failure(t.ce(), error), local, any ? "" : "; no other platform can take it");
  }
  if (!any) return false;
  if (t.tracked) untrack(t);
  dispatch(t, pl);
  return true;
}

bool Scheduler::place_again(TaskImpl& t) {
  Placement pl;
  pl.exclude = t.platform;
  pl.again = true;
  bool spare = true;
  Platform* first = nullptr;
  if (count_fitting(t, pl, spare, first) == 0) return false;
  if (t.tracked) untrack(t);
  dispatch(t, pl);
  return true;
}

bool Scheduler::place_when_ready(TaskImpl& t, const Placement& pl) {
  Placement later = pl;
  later.retry_of = nullptr;  // the caller's: gone by then
  // The last input may come while subscribing: then nothing waits and t is placed now.
  return t.unready.until_ready(t, [this, later](Task& ready) { dispatch(*impl(&ready), later); });
}

bool Scheduler::explore_or_hold(TaskImpl& t, std::span<const Candidate> cs, std::size_t pick,
                                bool resumed) {
  if (exploring_.load(std::memory_order_acquire) == 0 &&
      std::none_of(cs.begin(), cs.end(),
                   [](const Candidate& c) { return c.forecast.time_source == Source::Default; }))
    return true;  // the steady state: everything measured, nothing being measured
  const double now = std::chrono::duration<double>(Clock::now() - core_.start).count();
  std::lock_guard g(explore_mu_);
  switch (explorations_.admit(t.ce(), cs, pick, now)) {
    case ExplorationGate::Admit::Explore:
      t.explores = true;
      exploring_.fetch_add(1, std::memory_order_acq_rel);
      return true;
    case ExplorationGate::Admit::Place:
      return true;
    case ExplorationGate::Admit::Hold:
      break;
  }
  auto& held = held_[&t.ce()];
  if (resumed)
    held.push_front(&t);
  else
    held.push_back(&t);
  held_count_.fetch_add(1, std::memory_order_acq_rel);
  return false;
}

void Scheduler::end_exploration(TaskImpl& t) {
  t.explores = false;
  {
    std::lock_guard g(explore_mu_);
    explorations_.ended(t.ce(), *t.platform);
    exploring_.fetch_sub(1, std::memory_order_acq_rel);
  }
  release_held(t.ce());
}

void Scheduler::release_held(const CeInfo& ce) {
  for (;;) {
    TaskImpl* t;
    {
      std::lock_guard g(explore_mu_);
      auto it = held_.find(&ce);
      if (it == held_.end() || it->second.empty()) return;
      t = it->second.front();
      it->second.pop_front();
      held_count_.fetch_sub(1, std::memory_order_acq_rel);
    }
    // Held again: what kept it applies to those behind it too, until the next report.
    Placement pl;
    pl.resumed = true;
    if (!dispatch(*t, pl)) return;
  }
}

void Scheduler::settled(TaskImpl& t) {
  if (t.explored_version >= 0) end_version_exploration(t);
  // A measurement came in, or a platform freed a worker: tasks held for either may go now.
  if (t.explores)
    end_exploration(t);
  else if (held_count_.load(std::memory_order_acquire) > 0)
    release_held(t.ce());
}

void Scheduler::start_timeout(TaskImpl& t, int attempt) {
  if (t.failure().timeout_ms <= 0) return;
  timeouts_.arm(t.self, attempt, Clock::now() + std::chrono::milliseconds(t.failure().timeout_ms));
}

void Scheduler::stop() {
  timeouts_.stop();
}

bool Scheduler::is_lost(const Platform* p) {
  if (!any_lost_.load(std::memory_order_acquire)) return false;
  std::lock_guard g(tracked_mu_);
  return std::find(lost_.begin(), lost_.end(), p) != lost_.end();
}

void Scheduler::track(TaskImpl& t) {
  std::lock_guard g(tracked_mu_);
  t.tracked = true;
  t.tracked_prev = nullptr;
  t.tracked_next = tracked_head_;
  if (tracked_head_) tracked_head_->tracked_prev = &t;
  tracked_head_ = &t;
}

void Scheduler::untrack(TaskImpl& t) {
  std::lock_guard g(tracked_mu_);
  if (!t.tracked) return;
  t.tracked = false;
  if (t.tracked_prev)
    t.tracked_prev->tracked_next = t.tracked_next;
  else
    tracked_head_ = t.tracked_next;
  if (t.tracked_next) t.tracked_next->tracked_prev = t.tracked_prev;
  t.tracked_prev = t.tracked_next = nullptr;
}

void Scheduler::platform_lost(Platform& p) {
  // Each orphan with the attempt it had there: one that its platform's own verdict (Elsewhere)
  // has placed again meanwhile is in a newer attempt, which is not this one to take.
  std::vector<std::pair<TaskPtr, int>> orphans;
  {
    std::lock_guard g(tracked_mu_);
    if (std::find(lost_.begin(), lost_.end(), &p) != lost_.end()) return;
    lost_.push_back(&p);
    any_lost_.store(true, std::memory_order_release);
    for (TaskImpl* t = tracked_head_; t; t = t->tracked_next)
      if (t->platform == &p) orphans.emplace_back(t->self, t->attempt());
  }
  log().warn("platform {} lost: {} unfinished task(s) go to other platforms", p.name(),
             orphans.size());
  core_.observe_membership(p, true);
  for (auto& [task, attempt] : orphans) {
    TaskImpl* t = impl(task.get());
    if (attempt == 0 || !t->claim(attempt)) continue;  // settling, or placed again, right now
    untrack(*t);
    dispatch(*t);  // its inputs are still held by the task: they are safe
  }
}

bool Scheduler::platform_readmitted(Platform& p) {
  {
    std::lock_guard g(tracked_mu_);
    auto it = std::find(lost_.begin(), lost_.end(), &p);
    if (it == lost_.end()) return false;
    lost_.erase(it);
    any_lost_.store(!lost_.empty(), std::memory_order_release);
  }
  log().warn("platform {} re-admitted: it may be given tasks again", p.name());
  core_.observe_membership(p, false);
  platform_opened(p);
  return true;
}

}  // namespace cei::rt
