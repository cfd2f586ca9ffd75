// The Scheduler: every placement of a task on a platform is decided here, and only here. Platforms
// run what they are given and report a verdict (done, or a Failure: Error, Crash, Elsewhere); they
// never hand a task to a peer. The path of a task:
//
//   1. RuntimeCore::submit builds it (Analyzer) and calls dispatch(t).
//   2. dispatch: the platforms that can run it, not lost, not excluded by the Placement.
//   3. Under a policy that sees the graph, with a choice: wait for its inputs (place_when_ready).
//   4. Forecasts of each candidate; the policy picks one.
//   5. The exploration gate may hold it until an unmeasured platform has reported.
//   0. Once, before anything else: the CE's [[cei::requires]] on the task's arguments (once they
//      are ready); a broken one fails the task with a TaskError, and no platform sees it.
//      Then, once, before the first placement: the task's Quality (accurate, approximate,
//      dropped) from Policy::quality or its significance (evaluated once its inputs are ready).
//   6. A new attempt opens. (A PicksVersion platform asks choose_version() for the native
//      version of the task's quality as the task starts there.)
//   7. A MayBeLost platform's task is tracked, and its timeout clock starts; submit().
//   8. The platform's verdict: done (settled), or failed: Error/Crash -> the failure policy ->
//      retry() -> dispatch through the policy (the failed platform avoided; after a Crash never a
//      platform that runs CEs in the program's process); Elsewhere -> place_again() without it.
//   9. A platform lost (platform_lost): its tracked tasks -> dispatch again, without it.
//      A platform opened (platform_opened): the others' queued tasks -> the policy again.
//  10. settled(): a measurement came in, so tasks held by the gate are dispatched again.
//
//   Scheduler s(core);
//   s.dispatch(t);                                  // first placement
//   s.dispatch(t, {.exclude = slow});               // a re-placement that must not go back there
//
// Thread-safety: every public member may be called from any thread, concurrently, for different
// tasks; for one task, one call at a time (its attempts serialize them: only the holder of a
// claimed attempt places the task again).
#pragma once

#include "task_impl.hpp"
#include "timeout_watch.hpp"

#include <cei/rt/decision/exploration.hpp>
#include <cei/rt/platform.hpp>
#include <cei/rt/policy.hpp>

#include <atomic>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

namespace cei::rt {

class RuntimeCore;

// What a placement must respect beyond the task itself.
struct Placement {
  Platform* only = nullptr;  // this platform, already chosen (no policy)
  // Never this one (a platform busy past its timeout, one that runs behind).
  const Platform* exclude = nullptr;
  // Not this one while another platform can take the task (where a retried attempt failed).
  const Platform* avoid = nullptr;
  bool isolated_only = false;  // never a platform that runs CEs in the program's process
  bool resumed = false;        // back from the exploration gate's hold: first in line again
  bool again = false;          // a retry or a re-placement: the exploration gate lets it through
  // A retry of this failure: logged with the platform chosen.
  const std::exception_ptr* retry_of = nullptr;
};

// Whether p has the version a task of quality q of ce runs (its accurate version, the
// approximation, or nothing for a dropped task). Thread-safe.
bool serves(const Platform& p, const CeInfo& ce, Quality q);

class Scheduler {
 public:
  explicit Scheduler(RuntimeCore& core) : core_(core) {}

  // Places t (false when the exploration gate holds it instead; it is dispatched again later).
  bool dispatch(TaskImpl& t, const Placement& p = {});
  // The failure policy asks for a retry of t, whose attempt failed with `error` (`how`): placed
  // again through the policy. False when no platform may take it (it then fails for good).
  bool retry(TaskImpl& t, const std::exception_ptr& error, Failure how);
  // A claimed attempt of t whose platform cannot run it now (Failure::Elsewhere): placed again
  // without that platform, no retry counted. False when no other platform can take it.
  bool place_again(TaskImpl& t);
  // A platform is gone: it gets no more tasks, and its unsettled tracked tasks are placed again.
  void platform_lost(Platform& p);
  // The reverse of platform_lost: a lost platform may be offered tasks again (a node that
  // answers its health checks again); the tasks queued elsewhere are offered to the policy again,
  // as when a device opens. False if it was not lost.
  bool platform_readmitted(Platform& p);
  // Starts t's timeout clock for `attempt` (no-op without a timeout).
  void start_timeout(TaskImpl& t, int attempt);
  // t settled (done or failed for good): forgets it, and lets tasks held for its CE go.
  void settled(TaskImpl& t);
  void untrack(TaskImpl& t);
  // A platform that opened in the background (a device) is open: the tasks queued on the others
  // were placed by forecasts that had it open at its expected time, later or sooner than now, so
  // each other platform's queue is revisited as by rethink(), under policies by forecasts.
  void platform_opened(Platform& p);
  // Second thoughts: p runs behind its forecasts, or (`why`) another platform opened. Offers its
  // queued tasks, newest first, to the policy again (p's forecasts corrected by its lag), and
  // moves each one the policy places elsewhere and p gives back (Platform::withdraw), until the
  // policy keeps one on p. A call while another runs returns at once.
  void rethink(Platform& p, const char* why = nullptr);
  void stop();  // no more timeouts fire (the runtime shuts down)
  // As t starts on p (a PicksVersion platform, TaskContext::bind_version): the native version of
  // its quality to run. An unmeasured version on p is explored by one task at a time, at most
  // kVersionTries in all; otherwise the fastest measured one for the input size runs, or the
  // first one declared while none is measured.
  int choose_version(TaskImpl& t, const Platform& p);
  static constexpr int kVersionTries = 2;

 private:
  // Whether p may take t under pl (`spare_avoided`: not pl.avoid either) and has the version
  // of t's quality.
  bool fits(Platform* p, const TaskImpl& t, const Placement& pl, bool spare_avoided);
  // How many platforms fit (the first in `first`), sparing pl.avoid when another fits.
  std::size_t count_fitting(const TaskImpl& t, const Placement& pl, bool& spare_avoided,
                            Platform*& first);
  // Before t's first placement: its significance, and the version it runs (Policy::quality, or
  // the significance rule), downgraded to Accurate when no platform has that version.
  void decide_quality(TaskImpl& t);
  // The forecasts of the platforms that fit pl, into `out` (sparing pl.avoid as count_fitting
  // said); under second thoughts those of platforms running behind are corrected.
  // Returns how many candidates were left out for still opening (their queue is revisited when
  // they open).
  std::size_t forecast(TaskImpl& t, const Placement& pl, bool spare_avoided,
                       std::vector<Candidate>& out);
  bool place_when_ready(TaskImpl& t, const Placement& pl);
  // After the policy picked cs[pick] for t: false when t must wait (held) until an exploration
  // of its CE reports or one of its tasks completes.
  bool explore_or_hold(TaskImpl& t, std::span<const Candidate> cs, std::size_t pick, bool resumed);
  void end_exploration(TaskImpl& t);          // t's measurement is in, or will never be
  void end_version_exploration(TaskImpl& t);  // the same for t's native version
  void release_held(const CeInfo& ce);        // dispatches held tasks until one must wait again
  bool is_lost(const Platform* p);
  void track(TaskImpl& t);

  RuntimeCore& core_;

  std::mutex tracked_mu_;
  TaskImpl* tracked_head_ = nullptr;   // under tracked_mu_, as TaskImpl::tracked_*
  std::vector<const Platform*> lost_;  // under tracked_mu_
  std::atomic<bool> any_lost_{false};
  TimeoutWatch timeouts_;
  std::atomic<bool> rethinking_{false};

  std::mutex explore_mu_;
  ExplorationGate explorations_;                         // under explore_mu_
  std::map<const CeInfo*, std::deque<TaskImpl*>> held_;  // under explore_mu_, in submission order
  std::atomic<int> exploring_{0};                        // explorations_.running()
  std::atomic<int> held_count_{0};                       // tasks in held_
  // Explorations of native versions per (CE, platform, version): running now, and run in all.
  struct VersionTries {
    int running = 0, tries = 0;
  };
  std::map<std::tuple<const CeInfo*, const Platform*, int>, VersionTries> version_tries_;
};

}  // namespace cei::rt
