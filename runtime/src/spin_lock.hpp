// A test-and-test-and-set lock for critical sections of a few instructions (a version's
// subscriber list), where a mutex's syscall path would dominate.
#pragma once

#include <atomic>
#include <thread>

namespace cei::rt {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

class SpinLock {
 public:
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) cpu_relax();
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace cei::rt
