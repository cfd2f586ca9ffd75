// The CPU platform's queue of tasks whose inputs are ready, highest Task::priority() first and in
// the order they became ready among equals (a binary heap under one mutex; its storage is reused,
// so a steady pipeline allocates nothing). Idle workers spin briefly before sleeping, and pushers
// signal only when someone sleeps, so a busy pipeline makes no system calls.
#pragma once

#include "spin_lock.hpp"
#include "task_impl.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace cei::rt {

class ReadyQueue {
 public:
  // Thread-safe.
  void push(TaskImpl* t) {
    // The key is taken now: a rank that grows later must not reorder the heap under it.
    const int priority = t->priority();
    bool wake;
    {
      std::lock_guard g(mu_);
      heap_.push_back({priority, pushed_++, t});
      std::push_heap(heap_.begin(), heap_.end(), after);
      top_.store(heap_.front().priority, std::memory_order_relaxed);
      size_.fetch_add(1, std::memory_order_release);
      wake = sleepers_ > 0;
    }
    if (wake) cv_.notify_one();
  }

  // Null once stopped and empty.
  TaskImpl* pop() {
    for (int spin = 0; spin < kSpins; ++spin) {
      if (size_.load(std::memory_order_acquire) > 0) {
        std::lock_guard g(mu_);
        if (TaskImpl* t = take()) return t;
      }
      if (stop_.load(std::memory_order_relaxed)) break;
      if (spin % 16 == 15)
        std::this_thread::yield();  // on few cores, let the submitting thread run
      else
        cpu_relax();
    }
    std::unique_lock g(mu_);
    ++sleepers_;
    cv_.wait(g, [&] { return !heap_.empty() || stop_.load(std::memory_order_relaxed); });
    --sleepers_;
    return take();
  }

  std::size_t size() const { return size_.load(std::memory_order_relaxed); }
  // How many queued tasks a task of `priority` would wait for: none when it would go first, else
  // all (the forecasts' view; exact counts would need a scan). Thread-safe, a snapshot.
  std::size_t ahead_of(int priority) const {
    const std::size_t n = size();
    return n == 0 || priority > top_.load(std::memory_order_relaxed) ? 0 : n;
  }

  void stop() {
    {
      std::lock_guard g(mu_);
      stop_.store(true);
    }
    cv_.notify_all();
  }

 private:
  static constexpr int kSpins = 4096;

  struct Entry {
    int priority;
    std::uint64_t seq;  // pushes before it
    TaskImpl* task;
  };
  // The heap's order: `a` runs after `b`.
  static bool after(const Entry& a, const Entry& b) {
    return a.priority != b.priority ? a.priority < b.priority : a.seq > b.seq;
  }

  TaskImpl* take() {  // under mu_
    if (heap_.empty()) return nullptr;
    std::pop_heap(heap_.begin(), heap_.end(), after);
    TaskImpl* t = heap_.back().task;
    heap_.pop_back();
    top_.store(heap_.empty() ? INT_MIN : heap_.front().priority, std::memory_order_relaxed);
    size_.fetch_sub(1, std::memory_order_relaxed);
    return t;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Entry> heap_;
  std::uint64_t pushed_ = 0;
  std::atomic<int> top_{INT_MIN};  // the first task's priority
  std::atomic<std::size_t> size_{0};
  int sleepers_ = 0;
  std::atomic<bool> stop_{false};
};

}  // namespace cei::rt
