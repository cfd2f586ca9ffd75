// Per-task timeouts, on the process's timer thread (cei/rt/timers.hpp): at its deadline an attempt
// still open is settled as failed (a worker running a CE cannot be stopped; its late result is
// dropped because the attempt is closed).
//
//   watch.arm(t.self, attempt, Clock::now() + std::chrono::milliseconds(ms));
#pragma once

#include "task_impl.hpp"

#include <cei/rt/platform.hpp>
#include <cei/rt/timers.hpp>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace cei::rt {

class TimeoutWatch {
 public:
  ~TimeoutWatch() { stop(); }
  // Thread-safe.
  void arm(const TaskPtr& t, int attempt, Clock::time_point deadline);
  // Thread-safe: no timeout fires once this returns, and later arms are ignored.
  void stop();

 private:
  static void expire(const std::weak_ptr<Task>& task, int attempt);

  std::mutex mu_;
  // Timers not run yet: stop() cancels them, since they settle tasks through the runtime.
  std::unordered_set<Timers::Id> armed_;
  int firing_ = 0;  // timers past armed_, settling their task
  std::condition_variable fired_;
  bool stopping_ = false;
};

inline void TimeoutWatch::arm(const TaskPtr& t, int attempt, Clock::time_point deadline) {
  std::lock_guard g(mu_);
  if (stopping_) return;
  // The timer learns its id under mu_, which it takes first: one due at once waits for it.
  auto id = std::make_shared<Timers::Id>();
  *id = Timers::shared().at(deadline, [this, task = std::weak_ptr<Task>(t), attempt, id] {
    {
      std::lock_guard g(mu_);
      if (armed_.erase(*id) == 0) return;  // stop() came first
      ++firing_;
    }
    expire(task, attempt);
    std::lock_guard g(mu_);
    if (--firing_ == 0) fired_.notify_all();
  });
  armed_.insert(*id);
}

inline void TimeoutWatch::stop() {
  std::unordered_set<Timers::Id> armed;
  {
    std::lock_guard g(mu_);
    stopping_ = true;
    armed.swap(armed_);
  }
  for (const Timers::Id id : armed) Timers::shared().cancel(id);
  std::unique_lock g(mu_);
  fired_.wait(g, [&] { return firing_ == 0; });
}

inline void TimeoutWatch::expire(const std::weak_ptr<Task>& task, int attempt) {
  TaskPtr locked = task.lock();
  if (!locked) return;  // settled and gone
  TaskImpl* t = impl(locked.get());
  if (!t->claim(attempt)) return;  // finished in time, or already moved on
  const long ms = t->failure().timeout_ms;
  t->settle(
      std::make_exception_ptr(std::runtime_error("timed out after " + std::to_string(ms) + " ms")));
}

}  // namespace cei::rt
