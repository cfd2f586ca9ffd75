// The CPU platform's queue of tasks whose inputs are ready: an intrusive FIFO (no allocation per
// task) under one mutex. Idle workers spin briefly before sleeping, and pushers signal only when
// someone sleeps, so a busy pipeline makes no system calls.
#pragma once

#include "spin_lock.hpp"
#include "task_impl.hpp"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

namespace cei::rt {

class ReadyQueue {
 public:
  void push(TaskImpl* t) {
    t->next = nullptr;
    bool wake;
    {
      std::lock_guard g(mu_);
      if (tail_)
        tail_->next = t;
      else
        head_ = t;
      tail_ = t;
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
    cv_.wait(g, [&] { return head_ || stop_.load(std::memory_order_relaxed); });
    --sleepers_;
    return take();
  }

  std::size_t size() const { return size_.load(std::memory_order_relaxed); }

  void stop() {
    {
      std::lock_guard g(mu_);
      stop_.store(true);
    }
    cv_.notify_all();
  }

 private:
  static constexpr int kSpins = 4096;

  TaskImpl* take() {  // under mu_
    TaskImpl* t = head_;
    if (!t) return nullptr;
    head_ = t->next;
    if (!head_) tail_ = nullptr;
    size_.fetch_sub(1, std::memory_order_relaxed);
    return t;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  TaskImpl* head_ = nullptr;
  TaskImpl* tail_ = nullptr;
  std::atomic<std::size_t> size_{0};
  int sleepers_ = 0;
  std::atomic<bool> stop_{false};
};

}  // namespace cei::rt
