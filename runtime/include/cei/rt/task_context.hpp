// What a platform holds of a task the runtime submitted to it: the attempt it runs, the verdict
// it gives, the countdown of its inputs. Part of the platform SDK (docs/platforms.md); every
// Task that Runtime hands to Platform::submit is one (context(task)).
//
// A task runs in attempts (a retry, a placement again after its platform was lost or gave it
// back: each opens one). Exactly one verdict settles an attempt: the platform's, a timeout's or a
// lost platform's. The platform takes the attempt's token when it starts, and claims the attempt
// before it publishes anything; a claim that fails means someone else settled it: the platform
// drops what it has, so a late result never overwrites anything. A platform never hands a task to
// another one: its verdict says how the attempt failed (Failure) and the scheduler places the
// task again if it must.
//
//   void MyPlatform::submit(TaskPtr task) {
//     TaskContext& c = context(*task);
//     if (!c.inputs().until_ready(c, [this](Task& t) { run(context(t)); })) run(c);
//   }
//   void MyPlatform::run(TaskContext& c) {
//     const int attempt = c.attempt();
//     ... compute the outputs ...
//     if (!c.commit(attempt, [&] { publish the outputs; }))
//       drop the outputs;                            // timed out or moved meanwhile
//   }
//   // or, when it failed: c.fail(attempt, error, how);
//   // a CE's own exception: if (c.claim(attempt)) c.threw(e);
//
// Thread-safety: attempt(), claim() and the fail/commit calls that claim may race with the
// runtime's own verdicts (that is what they are for); the others belong to whoever holds the
// claim, or runs the attempt, as each says.
#pragma once

#include <cei/rt/input_waiter.hpp>
#include <cei/rt/platform.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

namespace cei::rt {

class TaskContext : public Task {
 public:
  // Task's accessors (thread-safety as Task says), final: a platform holding a TaskContext reads
  // them without a virtual call.
  std::uint64_t id() const final { return id_; }
  const CeInfo& ce() const final { return *ce_; }
  std::vector<TaskArg>& args() final { return args_; }
  const std::vector<TaskArg>& args() const final { return args_; }
  Timing& timing() final { return timing_; }
  const Timing& timing() const final { return timing_; }
  // The verdict on whatever attempt is open (for platforms that do not track attempts).
  void finish(std::exception_ptr error) final;
  void fail(std::exception_ptr error, Failure how) final;
  TaskContext* attempts() final { return this; }

  // The open attempt: the token a platform takes when it starts the task (0: none, the task is
  // settled or between attempts). Thread-safe.
  int attempt() const { return open_.load(std::memory_order_acquire) & ~kStarted; }
  // Closes `attempt` for the caller, who then owes its verdict (done, failed, threw); false if
  // someone else closed it first. Thread-safe.
  bool claim(int attempt) {
    int v = open_.load(std::memory_order_acquire);
    while (attempt != 0 && (v & ~kStarted) == attempt)
      if (open_.compare_exchange_weak(v, 0, std::memory_order_acq_rel)) return true;
    return false;
  }
  // A platform that can give queued tasks back (Platform::withdraw) marks the open attempt
  // started before it runs anything of it: false when there is none (withdrawn meanwhile).
  // Thread-safe.
  bool begin() {
    int v = open_.load(std::memory_order_acquire);
    return v != 0 && !(v & kStarted) &&
           open_.compare_exchange_strong(v, v | kStarted, std::memory_order_acq_rel);
  }
  // The same for attempt `attempt` only: false when it is not the open one any more (withdrawn,
  // timed out, or placed again and another attempt opened), so a platform whose queue entry
  // outlived its attempt never begins the next one. Thread-safe.
  bool begin(int attempt) {
    int v = attempt;
    return attempt != 0 &&
           open_.compare_exchange_strong(v, attempt | kStarted, std::memory_order_acq_rel);
  }
  // Closes the open attempt if it has not begun (the platform's Platform::withdraw): the
  // scheduler then places the task again. Thread-safe.
  bool withdraw() {
    int v = open_.load(std::memory_order_acquire);
    return v != 0 && !(v & kStarted) &&
           open_.compare_exchange_strong(v, 0, std::memory_order_acq_rel);
  }

  // Verdicts: one of these, once, by whoever holds a successful claim.
  // The outputs are published.
  void done();
  // The platform or the runtime failed it: `how` tells the scheduler what may follow (Failure:
  // a retry as the failure policy says, Failure::Final never, Failure::Elsewhere placed again
  // without this platform), else the program sees a TaskError naming the CE.
  void failed(std::exception_ptr error, Failure how = Failure::Error);
  // The CE's native implementation threw `thrown`: the program sees that very exception where it
  // observes the task, as the sequential program sees it at the call.
  void threw(std::exception_ptr thrown);

  // Claims `attempt` and then publishes (publish(): every output gets its value) and settles it
  // done; false, without calling publish, when the attempt was closed already: the caller drops
  // its results. Thread-safe as claim is.
  template <class Publish>
  bool commit(int attempt, Publish&& publish) {
    if (!claim(attempt)) return false;
    // A platform that did not take them at the start: still before the program may change
    // the objects some inputs are (Timing::input_bytes).
    if (timing_.input_bytes < 0) take_input_bytes();
    publish();
    done();
    return true;
  }
  // Claims `attempt` and settles it failed; nothing when it was closed already. Thread-safe.
  void fail(int attempt, std::exception_ptr error, Failure how = Failure::Error) {
    if (claim(attempt)) failed(std::move(error), how);
  }

  // Final: the runtime's executor reads it for every task it queues, without a virtual call.
  // Thread-safe (the runtime raises it while the task waits).
  int priority() const final { return rank.load(std::memory_order_relaxed); }
  float upward_s() const final;
  // The highest priority() the runtime gives: the class of an upward rank at least 2^kMaxPriority
  // times the task's own forecast (docs/executor.md, "Priorities").
  static constexpr int kMaxPriority = 4;

  // On a platform that runs native versions (Capabilities::PicksVersion), as the attempt starts:
  // the version to run on p, bound now so that what has been measured by then decides (the
  // scheduler: an unmeasured version is tried by a bounded number of tasks, else the fastest
  // measured one). Also sets timing().version_index. By the platform running the attempt, after
  // take_input_bytes().
  int bind_version(const Platform& p);

  // The countdown of the inputs for the platform running the current attempt (reset with each
  // attempt). Used by that platform only.
  InputWaiter& inputs() { return inputs_; }

  // The failure policy as resolved for this task (the CE's, else the launch config's). Constant.
  const FailureSpec& failure() const { return failure_; }
  // Whether the task's inputs must survive a failed attempt (a retry reads them again): then no
  // output may reuse an input's storage. Constant.
  bool keeps_inputs() const {
    return failure_.policy == FailurePolicy::Retry || failure_.policy == FailurePolicy::Ignore;
  }
  // The platform starts the attempt's execution now: the task's timeout, if it has one, counts
  // from here (a platform that reports no start is timed from its submission). Thread-safe.
  void start_timeout(int attempt);
  // The storage of argument i's input (an InOut) to update in place, when this task holds the
  // last reference to that value and the runtime owns it; else null (the caller copies). The
  // input's bytes() keeps the size the value had. By the platform running the attempt only.
  void* take_input(std::size_t i);
  // A reference that keeps the task (and the versions it holds) alive until it goes: for a
  // platform that may still run code on it after a verdict settled it (a timeout). Thread-safe.
  TaskPtr keep_alive() const;

 protected:
  // `args`: empty, with room for the task's arguments (the runtime recycles their buffers).
  TaskContext(std::uint64_t id, const CeInfo& ce, std::vector<TaskArg> args, FailureSpec failure)
      : id_(id), ce_(&ce), args_(std::move(args)), failure_(failure) {}

  std::uint64_t id_;
  const CeInfo* ce_;
  std::vector<TaskArg> args_;
  Timing timing_;

  // priority(), kept by the runtime: the class of the task's upward rank (0: no longer than its
  // own forecast, a leaf; up to kMaxPriority), so that the tasks on the longest paths run first.
  std::atomic<int> rank{0};
  // The attempt open (0: none), with kStarted once a platform began it (begin()).
  static constexpr int kStarted = 1 << 30;
  std::atomic<int> open_{0};
  FailureSpec failure_;
  InputWaiter inputs_;
};

// The context of a task the runtime submitted (every one is a TaskContext).
inline TaskContext& context(Task& t) {
  return static_cast<TaskContext&>(t);
}

}  // namespace cei::rt
