// The readiness countdown of a task's inputs, written once for every platform (and for the
// runtime's own placement once the inputs are ready): subscribe to each input still to come, and
// let whichever arrives last (or the caller, when none is left) go on with the task. Part of the
// platform SDK (docs/platforms.md).
//
//   InputWaiter& w = context(*task).inputs();  // or a waiter of the platform's own record
//   if (!w.until_ready(*task, [this](Task& t) { start(t); })) start(*task);
//
// A platform that must see host copies (a CPU) waits for those afterwards with until_on_host.
#pragma once

#include <cei/rt/platform.hpp>

#include <atomic>
#include <exception>

namespace cei::rt {

class InputWaiter {
 public:
  // Waits for every input of `t` that is Pending now (Version::on_ready). Returns true when some
  // input is still to come: the last one to become Ready or Failed calls ready(t), once, on its
  // own thread. Returns false when none is left by the time it returns: ready is not called and
  // the caller goes on itself (no recursion into the platform from its own submit).
  // One wait at a time per waiter; the waiter and `t` must outlive it. `ready` is copied into
  // each input's subscription: one pointer (the platform) keeps that copy free of allocation.
  template <class Ready>
  bool until_ready(Task& t, const Ready& ready) {
    return count_down(
        t, [](const Version& v) { return v.state() == Version::State::Pending; },
        [this, ready](Version& v) {
          v.on_ready([this, ready] {
            if (arrive()) ready(*task_);
          });
        });
  }

  // As until_ready, for the inputs that have no host copy: each is brought to the host
  // (Version::ensure_host) or fails (its error() then says why). Marks the waiter fetched().
  template <class Ready>
  bool until_on_host(Task& t, const Ready& ready) {
    fetched_ = true;
    return count_down(
        t, [](Version& v) { return v.host() == nullptr; },
        [this, ready](Version& v) {
          v.ensure_host([this, ready](std::exception_ptr) {
            if (arrive()) ready(*task_);
          });
        });
  }

  // Whether until_on_host ran since the last reset: a platform that finds an input still away
  // from the host after it knows the fetch failed. Not thread-safe: read by whoever runs the task.
  bool fetched() const { return fetched_; }
  // Whether a wait is under way: some input is still to come. A platform that takes queued tasks
  // back (Platform::withdraw) leaves those alone, since the last arrival will push them.
  // Thread-safe.
  bool waiting() const { return left_.load(std::memory_order_acquire) != 0; }
  // Before another attempt of the task. Not while a wait is under way.
  void reset() {
    left_.store(0, std::memory_order_relaxed);
    fetched_ = false;
  }

 private:
  // One for the caller, one per input that `needs` waiting: the caller's own arrival at the end
  // sees whether subscribe's callbacks all came in meanwhile.
  template <class Needs, class Subscribe>
  bool count_down(Task& t, const Needs& needs, const Subscribe& subscribe) {
    task_ = &t;
    left_.store(1, std::memory_order_relaxed);
    for (auto& a : t.args()) {
      if (!a.in || !needs(*a.in)) continue;
      left_.fetch_add(1, std::memory_order_relaxed);
      subscribe(*a.in);
    }
    return !arrive();
  }
  bool arrive() { return left_.fetch_sub(1, std::memory_order_acq_rel) == 1; }

  std::atomic<int> left_{0};
  bool fetched_ = false;
  Task* task_ = nullptr;
};

}  // namespace cei::rt
