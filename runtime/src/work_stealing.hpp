// A work-stealing deque (Chase & Lev, "Dynamic circular work-stealing deque", SPAA 2005, with the
// memory orders of Le et al., "Correct and efficient work-stealing for weak memory models",
// PPoPP 2013; the design Taskflow's tsq.hpp uses): one owner pushes and pops at the bottom
// (newest first, so a task's successor runs while its data is in cache), any thread steals at the
// top (oldest first). No lock, no allocation once the ring is large enough.
//
// The orders are seq_cst where the paper puts a fence, so ThreadSanitizer (which does not model
// fences) sees the same happens-before as the hardware; on x86 the loads cost the same.
//
//   WorkStealingDeque<Job> q;       // owner: q.push(j); Job* j = q.pop();
//   Job* j = q.steal();             // any thread
#pragma once

#include "cache_line.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace cei::rt {

template <typename T>
class WorkStealingDeque {
 public:
  // `capacity`: the ring's first size, a power of two; it doubles when full.
  explicit WorkStealingDeque(std::int64_t capacity = 256) {
    rings_.push_back(std::make_unique<Ring>(capacity));
    ring_.store(rings_.back().get(), std::memory_order_relaxed);
  }
  WorkStealingDeque(const WorkStealingDeque&) = delete;
  WorkStealingDeque& operator=(const WorkStealingDeque&) = delete;

  // Owner thread only.
  void push(T* item) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    Ring* r = ring_.load(std::memory_order_relaxed);
    // The thieves keep the top's line busy: look at it only when the ring seems full. A stale
    // top is never ahead of the real one, so the ring is never overfilled.
    if (b - top_seen_ > r->mask) {
      top_seen_ = top_.load(std::memory_order_acquire);
      if (b - top_seen_ > r->mask) r = grow(r, b, top_seen_);
    }
    r->put(b, item);
    bottom_.store(b + 1, std::memory_order_release);  // publishes the item and what it points to
  }

  // Owner thread only. The newest item, or null when empty.
  T* pop() {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    Ring* r = ring_.load(std::memory_order_relaxed);
    bottom_.store(b, std::memory_order_seq_cst);  // claim before looking at the thieves' end
    std::int64_t t = top_.load(std::memory_order_seq_cst);
    if (t > b) {  // empty
      bottom_.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    T* item = r->get(b);
    if (t == b) {  // the last item: race the thieves for it
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                        std::memory_order_relaxed))
        item = nullptr;
      bottom_.store(b + 1, std::memory_order_relaxed);
    }
    return item;
  }

  // Any thread. The oldest item, or null when the deque was empty. A thief that loses an item to
  // another tries the next one: a null that only meant "lost a race" would let a waiting worker
  // sleep while items remain.
  T* steal() {
    for (;;) {
      std::int64_t t = top_.load(std::memory_order_seq_cst);
      const std::int64_t b = bottom_.load(std::memory_order_seq_cst);
      if (t >= b) return nullptr;
      T* item = ring_.load(std::memory_order_acquire)->get(t);
      if (top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                       std::memory_order_relaxed))
        return item;
    }
  }

  // Any thread; a snapshot, exact only when no one pushes or takes meanwhile.
  bool empty() const noexcept { return size() == 0; }
  std::size_t size() const noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_relaxed);
    return b > t ? static_cast<std::size_t>(b - t) : 0;
  }

 private:
  struct Ring {
    explicit Ring(std::int64_t capacity)
        : mask(capacity - 1), slots(new std::atomic<T*>[static_cast<std::size_t>(capacity)]) {}
    void put(std::int64_t i, T* item) { slots[i & mask].store(item, std::memory_order_relaxed); }
    T* get(std::int64_t i) const { return slots[i & mask].load(std::memory_order_relaxed); }
    std::int64_t mask;
    std::unique_ptr<std::atomic<T*>[]> slots;
  };

  // A thief may still read the old ring: it stays allocated until the deque dies (the rings
  // double, so all of them together take at most twice the largest).
  Ring* grow(Ring* r, std::int64_t b, std::int64_t t) {
    auto bigger = std::make_unique<Ring>(2 * (r->mask + 1));
    for (std::int64_t i = t; i < b; ++i) bigger->put(i, r->get(i));
    rings_.push_back(std::move(bigger));
    Ring* now = rings_.back().get();
    ring_.store(now, std::memory_order_release);
    return now;
  }

  alignas(kCacheLine) std::atomic<std::int64_t> top_{0};     // thieves' end
  alignas(kCacheLine) std::atomic<std::int64_t> bottom_{0};  // owner's end
  std::atomic<Ring*> ring_;
  std::int64_t top_seen_ = 0;                 // owner only: the top at the last look
  std::vector<std::unique_ptr<Ring>> rings_;  // owner only
};

}  // namespace cei::rt
