// The runtime's Task: its arguments (input and renamed output versions), its timing, its failure
// policy, its rank, and the bookkeeping that platforms of this library share (an input
// countdown).
//
// A task runs in attempts (a retry, a resubmission after its platform was lost, each opens one).
// Exactly one verdict settles an attempt: the platform's, a timeout's or a lost platform's; the
// others find it closed and drop what they have, so a late result never overwrites anything.
//
//   const int attempt = t->attempt();              // when the platform starts it
//   ... run ...
//   if (!t->claim(attempt)) return drop_results();  // timed out or moved meanwhile
//   publish outputs; t->settle(nullptr);
#pragma once

#include <cei/rt/platform.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cei::rt {

class RuntimeCore;

class TaskImpl final : public Task {
 public:
  TaskImpl(RuntimeCore& rt, std::uint64_t id, const CeInfo& ce, std::size_t nargs,
           FailureSpec failure);
  ~TaskImpl() override;

  std::uint64_t id() const override { return id_; }
  const CeInfo& ce() const override { return *ce_; }
  std::vector<TaskArg>& args() override { return args_; }
  // A platform's verdict on the current attempt (for platforms that do not track attempts).
  void finish(std::exception_ptr error) override;
  void fail(std::exception_ptr error, Failure how) override;
  Timing& timing() override { return timing_; }
  int priority() const override { return rank.load(std::memory_order_relaxed); }

  // The open attempt (0: none, the task is settled or between attempts).
  int attempt() const { return open_.load(std::memory_order_acquire) & ~kStarted; }
  // Closes `attempt` for the caller; false if someone else closed it first.
  bool claim(int attempt) {
    int v = open_.load(std::memory_order_acquire);
    while (attempt != 0 && (v & ~kStarted) == attempt)
      if (open_.compare_exchange_weak(v, 0, std::memory_order_acq_rel)) return true;
    return false;
  }
  // A platform that can give queued tasks back (Platform::withdraw) marks the open attempt
  // started before it runs anything of it: false when there is none (withdrawn meanwhile).
  bool begin() {
    int v = open_.load(std::memory_order_acquire);
    return v != 0 && !(v & kStarted) &&
           open_.compare_exchange_strong(v, v | kStarted, std::memory_order_acq_rel);
  }
  // Closes the open attempt if it has not begun: the runtime places the task again.
  bool withdraw() {
    int v = open_.load(std::memory_order_acquire);
    return v != 0 && !(v & kStarted) &&
           open_.compare_exchange_strong(v, 0, std::memory_order_acq_rel);
  }
  // After a successful claim: success (null: outputs published) or the failure policy for a
  // failure of the runtime or of a platform, which the program sees as a TaskError naming the CE;
  // `how` tells the scheduler what may happen next (Failure::Elsewhere: placed again without
  // this platform, unless none other can take it).
  void settle(std::exception_ptr error, Failure how = Failure::Error);
  // After a successful claim: the CE's native implementation threw `thrown`. The program sees
  // that very exception (rethrown where it observes the task), as the sequential program sees it
  // at the call, so that its handlers catch it by its own type.
  void settle_thrown(std::exception_ptr thrown);
  // Opens the next attempt and resets the platform scratch; returns its number.
  int open_attempt();

  // The resolved policy (the CE's, else the config's).
  const FailureSpec& failure() const { return failure_; }
  // Inputs must survive a failed attempt: no in-place update of an inout's old value.
  bool keeps_inputs() const {
    return failure_.policy == FailurePolicy::Retry || failure_.policy == FailurePolicy::Ignore;
  }
  int retries_done = 0;
  // The upward rank (priority()): raised by RuntimeCore as dependants are submitted.
  // 0 for a task nothing reads from yet: the executor's common level (priorities above 0 run
  // first), where a leaf stays behind the tasks that unlock others.
  std::atomic<int> rank{0};
  // Inputs still pending before the scheduler places the task (Scheduler::place_when_ready).
  std::atomic<int> unready{0};
  // Placed on a platform that had not run its CE: the exploration that the Scheduler counts.
  bool explores = false;
  // The execution forecast the policy placed it by, when second thoughts may revisit the
  // placement (SecondThoughts::ran holds the run to it); 0: none, the task stays where it is (a
  // task moved once is not moved again).
  double forecast_exec_s = 0;
  bool linked = false;  // in the rank graph (RuntimeCore::link), under its lock

  // Keeps the task alive from submission until settled, so platforms may hold raw pointers.
  TaskPtr self;
  Platform* platform = nullptr;
  // Platform scratch (the CPU platform): inputs still pending.
  std::atomic<int> waiting{0};
  bool fetched_inputs = false;
  int lane = -1;  // set when a platform reports the start
  // A void CE without outputs: the version its Pending<void> waits for, settled with the task.
  VersionPtr done;
  // The scheduler's list of unsettled tasks on a platform that may be lost (MayBeLost).
  TaskImpl* tracked_prev = nullptr;
  TaskImpl* tracked_next = nullptr;
  bool tracked = false;

 private:
  void settle_failure(std::exception_ptr error, bool thrown_by_ce, Failure how);
  void ignore_failure(const std::exception_ptr& error);
  void complete(bool failed);

  RuntimeCore* rt_;
  std::uint64_t id_;
  const CeInfo* ce_;
  std::vector<TaskArg> args_;
  Timing timing_;
  FailureSpec failure_;
  // The attempt open (0: none), with kStarted once a platform began it (begin()).
  static constexpr int kStarted = 1 << 30;
  std::atomic<int> open_{0};
  int attempts_ = 0;
};

inline TaskImpl* impl(Task* t) {
  return static_cast<TaskImpl*>(t);
}

// The exception the program sees for a failure of the runtime or a platform: a TaskError naming
// the CE (kept as is when it already is one).
std::exception_ptr as_task_error(const CeInfo& ce, std::exception_ptr e);
// "CE Iface::name failed: <what>" for the logs (a TaskError's own message already says so).
std::string describe_failure(const CeInfo& ce, const std::exception_ptr& e);

}  // namespace cei::rt
