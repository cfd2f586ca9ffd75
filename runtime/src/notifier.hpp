// An event count (as Eigen's EventCount and Taskflow's Notifier): lets idle threads sleep
// without a lock on the producers' path. A producer that finds no one waiting pays one fence and
// one load; a thread about to sleep announces itself, checks its condition once more, and only
// then blocks, so no notification is lost between the check and the sleep.
//
//   waiter:   auto key = n.prepare_wait();
//             if (work_available()) { n.cancel_wait(); ... } else n.commit_wait(key);
//   producer: make work available; n.notify_one();
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace cei::rt {

class Notifier {
 public:
  // Any thread. Announces a wait: a notify from now on ends the commit_wait of this key.
  std::uint64_t prepare_wait() {
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    return epoch_.load(std::memory_order_seq_cst);
  }
  // The thread that prepared: the condition held after all.
  void cancel_wait() { waiters_.fetch_sub(1, std::memory_order_relaxed); }
  // The thread that prepared: blocks until a notify after prepare_wait.
  void commit_wait(std::uint64_t key) {
    {
      std::unique_lock g(mu_);
      cv_.wait(g, [&] { return epoch_.load(std::memory_order_relaxed) != key; });
    }
    waiters_.fetch_sub(1, std::memory_order_relaxed);
  }
  // Any thread, after making work available. Wakes one waiter, if any.
  void notify_one() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    notify_one_fenced();
  }
  // As notify_one, for a caller that has issued a seq_cst fence since it made work available.
  void notify_one_fenced() { notify(false); }
  // Any thread. Wakes every waiter.
  void notify_all() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    notify(true);
  }
  // Any thread; a snapshot: threads between prepare_wait and the end of commit_wait.
  int waiters() const { return waiters_.load(std::memory_order_relaxed); }

 private:
  // After a fence that orders the caller's publication of work before the look at waiters_,
  // against a waiter's announcement before its last look at the work: each side sees the other's.
  void notify(bool all) {
    if (waiters_.load(std::memory_order_relaxed) == 0) return;
    {
      std::lock_guard g(mu_);
      epoch_.fetch_add(1, std::memory_order_relaxed);
    }
    if (all)
      cv_.notify_all();
    else
      cv_.notify_one();
  }

  // Read by every producer at each notify; written only when a thread prepares to sleep or ends
  // its wait: a line of its own, apart from the epoch and the lock that the sleepers write.
  alignas(64) std::atomic<int> waiters_{0};
  alignas(64) std::atomic<std::uint64_t> epoch_{0};
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace cei::rt
