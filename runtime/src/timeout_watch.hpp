// Per-task timeouts: one thread that sleeps until the earliest deadline and settles the attempts
// still open then as failed (a worker running a CE cannot be stopped; its late result is dropped
// because the attempt is closed). Started by the first task that has a timeout.
//
//   watch.arm(t.self, attempt, Clock::now() + std::chrono::milliseconds(ms));
#pragma once

#include "task_impl.hpp"

#include <cei/rt/platform.hpp>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cei::rt {

class TimeoutWatch {
 public:
  ~TimeoutWatch() { stop(); }
  void arm(const TaskPtr& t, int attempt, Clock::time_point deadline);
  void stop();

 private:
  struct Entry {
    std::weak_ptr<Task> task;
    int attempt;
  };
  void run();

  std::mutex mu_;
  std::condition_variable cv_;
  std::multimap<Clock::time_point, Entry> due_;
  std::thread thread_;
  bool stopping_ = false;
};

inline void TimeoutWatch::arm(const TaskPtr& t, int attempt, Clock::time_point deadline) {
  bool earliest;
  {
    std::lock_guard g(mu_);
    if (stopping_) return;
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    earliest = due_.empty() || deadline < due_.begin()->first;
    due_.emplace(deadline, Entry{t, attempt});
  }
  if (earliest) cv_.notify_one();
}

inline void TimeoutWatch::stop() {
  {
    std::lock_guard g(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

inline void TimeoutWatch::run() {
  std::unique_lock g(mu_);
  while (!stopping_) {
    if (due_.empty()) {
      cv_.wait(g);
      continue;
    }
    if (cv_.wait_until(g, due_.begin()->first) == std::cv_status::no_timeout) continue;
    std::vector<Entry> expired;
    const auto now = Clock::now();
    while (!due_.empty() && due_.begin()->first <= now) {
      expired.push_back(std::move(due_.begin()->second));
      due_.erase(due_.begin());
    }
    g.unlock();
    for (auto& e : expired) {
      TaskPtr task = e.task.lock();
      if (!task) continue;  // settled and gone
      TaskImpl* t = impl(task.get());
      if (!t->claim(e.attempt)) continue;  // finished in time, or already moved on
      const long ms = t->failure().timeout_ms;
      t->settle(std::make_exception_ptr(
          std::runtime_error("timed out after " + std::to_string(ms) + " ms")));
    }
    g.lock();
  }
}

}  // namespace cei::rt
