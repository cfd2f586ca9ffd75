// The runtime's Task: what the runtime keeps of it (its placement, its place in the rank graph
// and in the lists of tracked tasks, its retries). Its arguments (input and renamed output
// versions), timing, rank, attempts, failure policy and input countdown are the platforms'
// TaskContext (task_context.hpp), which the runtime claims and settles the same way.
#pragma once

#include <cei/rt/task_context.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cei::rt {

class RuntimeCore;

class TaskImpl final : public TaskContext {
 public:
  TaskImpl(RuntimeCore& rt, std::uint64_t id, const CeInfo& ce, std::size_t nargs,
           FailureSpec failure);
  ~TaskImpl() override;

  // After a successful claim: success (null: outputs published) or the failure policy for a
  // failure of the runtime or of a platform, which the program sees as a TaskError naming the CE;
  // `how` tells the scheduler what may happen next (Failure::Elsewhere: placed again without
  // this platform, unless none other can take it; Failure::Final: never retried).
  void settle(std::exception_ptr error, Failure how = Failure::Error);
  // After a successful claim: the CE's native implementation threw `thrown`. The program sees
  // that very exception (rethrown where it observes the task), as the sequential program sees it
  // at the call, so that its handlers catch it by its own type.
  void settle_thrown(std::exception_ptr thrown);
  // Opens the next attempt and resets the platform's input countdown; returns its number.
  int open_attempt();

  int retries_done = 0;
  // priority(): the class of upward_rank_s against dur_s (rank_class), kept by RuntimeCore::link.
  using TaskContext::rank;
  // The forecast duration the ranks count for this task, set at submission, and its upward rank:
  // dur_s plus the longest upward rank of the tasks known to read its results (raised as they
  // are submitted, RuntimeCore::link).
  float dur_s = 0;
  std::atomic<float> upward_rank_s{0};
  // Raises upward_rank_s to at least `rank` (thread-safe): true when its class rose (a task already
  // queued ready is queued again, Platform::promote).
  bool raise_rank(float rank);
  // Set (release) just before the task is submitted to `platform`, for promote: read by other
  // threads while it waits there.
  std::atomic<Platform*> queued_on{nullptr};
  // Inputs still pending before the scheduler places the task (Scheduler::place_when_ready).
  InputWaiter unready;
  // Placed on a platform that had not run its CE: the exploration that the Scheduler counts.
  bool explores = false;
  // Runs a native version not measured on its platform yet (Scheduler::choose_version): that
  // version's exploration there, counted until the task settles or is placed again; -1: none.
  int explored_version = -1;
  const Platform* explored_on = nullptr;
  // The execution forecast the policy placed it by, when second thoughts may revisit the
  // placement (SecondThoughts::ran holds the run to it); 0: none, the task stays where it is (a
  // task moved once is not moved again).
  double forecast_exec_s = 0;
  bool linked = false;  // ranked (RuntimeCore::link): set before it is dispatched
  // Set once by the Scheduler before the first placement (quality_decided), read-only afterwards.
  int significance_ = 100;
  Quality quality_ = Quality::Accurate;
  bool quality_decided = false;
  // [[cei::requires]]: checked once before the first placement, its inputs fetched to the host
  // first when one lives only on a device (Scheduler::dispatch).
  bool requirements_checked = false;
  bool requirements_fetched = false;
  int significance() const override { return significance_; }
  Quality quality() const override { return quality_; }

  // Keeps the task alive from submission until settled, so platforms may hold raw pointers.
  TaskPtr self;
  Platform* platform = nullptr;
  int lane = -1;  // set when a platform reports the start
  // A void CE without outputs: the version its Pending<void> waits for, settled with the task.
  VersionPtr done;
  // The scheduler's list of unsettled tasks on a platform that may be lost (MayBeLost).
  TaskImpl* tracked_prev = nullptr;
  TaskImpl* tracked_next = nullptr;
  bool tracked = false;

 private:
  friend class TaskContext;  // its verdicts are these, on its own state

  void settle_failure(std::exception_ptr error, bool thrown_by_ce, Failure how);
  void ignore_failure(const std::exception_ptr& error);
  void complete(bool failed);

  RuntimeCore* rt_;
  int attempts_ = 0;
};

inline TaskImpl* impl(Task* t) {
  return static_cast<TaskImpl*>(t);
}

// The priority class of an upward rank against the task's own forecast: floor(log2(rank / dur)),
// 0 to TaskContext::kMaxPriority.
inline int rank_class(float rank, float dur) {
  static_assert(TaskContext::kMaxPriority == 4, "a comparison per class");
  if (!(dur > 0)) return 0;
  return rank >= 16 * dur ? 4 : rank >= 8 * dur ? 3 : rank >= 4 * dur ? 2 : rank >= 2 * dur ? 1 : 0;
}

// The exception the program sees for a failure of the runtime or a platform: a TaskError naming
// the CE (kept as is when it already is one).
std::exception_ptr as_task_error(const CeInfo& ce, std::exception_ptr e);
// "CE Iface::name failed: <what>" for the logs (a TaskError's own message already says so).
std::string describe_failure(const CeInfo& ce, const std::exception_ptr& e);

}  // namespace cei::rt
