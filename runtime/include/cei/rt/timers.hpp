// One thread for the runtime's work that falls due at a time rather than on an event: energy
// meters' samples and task timeouts, which had a thread each (one per metered platform, one for
// timeouts). Callbacks run one at a time on that thread and must be short: the longest, an NVML
// read, takes 2.5-4 ms on an H100, which a timeout due meanwhile waits behind.
//
//   auto& timers = cei::rt::Timers::shared();
//   auto id = timers.every(std::chrono::milliseconds(20), [&] { sample(); });
//   timers.at(Clock::now() + std::chrono::seconds(1), [] { ... });
//   timers.cancel(id);  // no call of it runs once this returns
#pragma once

#include <cei/rt/platform.hpp>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace cei::rt {

class Timers {
 public:
  using Id = std::uint64_t;

  // Thread-safe. The process's timer thread, started at first use and never stopped: meters and
  // watches may cancel their timers while static objects are destroyed.
  static Timers& shared() {
    static Timers* timers = new Timers;
    return *timers;
  }

  // Thread-safe. Runs fn once at `when`, at once if that has passed.
  Id at(Clock::time_point when, std::function<void()> fn) {
    return add(when, Clock::duration::zero(), std::move(fn));
  }
  // Thread-safe. Runs fn every `period` (the first time one period from now) until cancelled; a
  // call that ends late delays the next, it never runs two at once.
  Id every(Clock::duration period, std::function<void()> fn) {
    return add(Clock::now() + period, period, std::move(fn));
  }
  // Thread-safe, but not from a callback of the same id. The timer runs no more, and no call of
  // it is running when this returns. An id that ran out or was cancelled already is fine.
  void cancel(Id id) {
    std::unique_lock g(mu_);
    timers_.erase(id);
    ran_.wait(g, [&] { return running_ != id; });
  }

 private:
  struct Timer {
    Clock::duration period;  // zero: once
    std::shared_ptr<std::function<void()>> fn;
  };

  Timers() {
    std::thread([this] { loop(); }).detach();
  }

  Id add(Clock::time_point when, Clock::duration period, std::function<void()> fn) {
    std::lock_guard g(mu_);
    const Id id = ++last_id_;
    timers_.emplace(id, Timer{period, std::make_shared<std::function<void()>>(std::move(fn))});
    const bool earliest = due_.empty() || when < due_.begin()->first;
    due_.emplace(when, id);
    if (earliest) wake_.notify_one();
    return id;
  }

  void loop() {
    std::unique_lock g(mu_);
    for (;;) {
      if (due_.empty()) {
        wake_.wait(g);
        continue;
      }
      const auto [when, id] = *due_.begin();
      if (Clock::now() < when) {
        wake_.wait_until(g, when);
        continue;
      }
      due_.erase(due_.begin());
      auto it = timers_.find(id);
      if (it == timers_.end()) continue;  // cancelled
      const auto fn = it->second.fn;
      running_ = id;
      g.unlock();
      (*fn)();
      g.lock();
      running_ = 0;
      ran_.notify_all();
      it = timers_.find(id);
      if (it == timers_.end()) continue;  // cancelled while it ran
      if (it->second.period == Clock::duration::zero())
        timers_.erase(it);
      else
        due_.emplace(Clock::now() + it->second.period, id);
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;  // an earlier timer, for the thread
  std::condition_variable ran_;   // a callback returned, for cancel
  std::map<Id, Timer> timers_;
  std::multimap<Clock::time_point, Id> due_;  // entries of cancelled timers stay until due
  Id last_id_ = 0;
  Id running_ = 0;
};

}  // namespace cei::rt
