// Recycled fixed-size blocks for the objects every task allocates (the task, its versions, their
// shared_ptr control blocks). The program thread allocates them and workers free them, which
// sends glibc's malloc through its locked cross-thread path on every task; here each thread keeps
// a cache of free blocks and trades whole batches with a global list, one lock per kBatch blocks.
// Blocks are never returned to the system: the pool holds the peak of tasks in flight.
// SpareVectors does the same for vectors (a task's arguments): a vector, emptied, travels back
// with its buffer.
//
//   auto t = std::allocate_shared<TaskImpl>(PoolAllocator<TaskImpl>{}, ...);
//   std::vector<TaskArg> v = SpareVectors<TaskArg>::take(n);  // empty, room for n
//   SpareVectors<TaskArg>::give(std::move(v));
#pragma once

#include "cache_line.hpp"

#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace cei::rt {

// Bytes every pool has taken from the system (Runtime::pooled_bytes).
inline std::atomic<std::size_t> pool_reserved_bytes{0};

template <std::size_t Size>
class BlockPool {
 public:
  static void* allocate() {
    Cache& c = cache();
    if (!c.head) c.refill();
    if (!c.head) {
      pool_reserved_bytes.fetch_add(Size, std::memory_order_relaxed);  // the rare slow path
      return ::operator new(Size);
    }
    Node* n = c.head;
    c.head = n->next;
    --c.count;
    // The next block was last written on the worker that freed it, and is likely still in that
    // core's cache: ask for its lines now, for writing, so that the transfers overlap this task's
    // submission instead of stalling the next one at its first atomic operation. (H100 machine,
    // 16 vCPUs, 320-470 ns a transfer between most pairs: per empty task, 4 interleaved rounds
    // at 1-16 workers, fan 0.93-1.15 -> 0.83-0.90 us, independent 0.60-0.78 -> 0.56-0.67, chain
    // 0.49-0.80 -> 0.48-0.53.)
    if (c.head)
      for (std::size_t off = 0; off < Size; off += kCacheLine)
        __builtin_prefetch(reinterpret_cast<const char*>(c.head) + off, 1, 3);
    return n;
  }

  static void deallocate(void* p) noexcept {
    Cache& c = cache();
    if (c.count == kBatch) c.spill();
    auto* n = static_cast<Node*>(p);
    n->next = c.head;
    c.head = n;
    ++c.count;
  }

 private:
  static constexpr std::size_t kBatch = 128;
  struct Node {
    Node* next;
  };
  struct Batch {
    Node* head;
    std::size_t count;
  };
  struct Global {
    std::mutex mu;
    std::vector<Batch> batches;
  };
  static Global& global() {
    static auto* g = new Global;  // never destroyed: threads may exit after static destructors
    return *g;
  }
  struct Cache {
    Node* head = nullptr;
    std::size_t count = 0;
    void spill() noexcept {
      if (!head) return;
      Global& g = global();
      try {
        std::lock_guard l(g.mu);
        g.batches.push_back({head, count});
      } catch (...) {  // no room to record the batch: give the blocks back to the system
        while (head) {
          pool_reserved_bytes.fetch_sub(Size, std::memory_order_relaxed);
          ::operator delete(std::exchange(head, head->next));
        }
      }
      head = nullptr;
      count = 0;
    }
    void refill() {
      Global& g = global();
      std::lock_guard l(g.mu);
      if (g.batches.empty()) return;
      head = g.batches.back().head;
      count = g.batches.back().count;
      g.batches.pop_back();
    }
    ~Cache() { spill(); }
  };
  static Cache& cache() {
    thread_local Cache c;
    return c;
  }
};

template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n != 1) return std::allocator<T>{}.allocate(n);
    return static_cast<T*>(BlockPool<block_size()>::allocate());
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n != 1) return std::allocator<T>{}.deallocate(p, n);
    BlockPool<block_size()>::deallocate(p);
  }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const noexcept {
    return true;
  }

 private:
  static constexpr std::size_t block_size() {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    constexpr std::size_t a = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
    return (sizeof(T) + a - 1) / a * a;
  }
};

// Emptied vectors kept with their capacity: the thread that frees a task gives its vector, the
// thread that makes the next one takes it, so neither calls malloc for it (nor free across
// threads). Each thread keeps up to kBatch of them and trades whole batches with a global list.
// Like BlockPool, it holds the peak of tasks in flight, and counts it in pool_reserved_bytes.
template <typename T>
class SpareVectors {
  // The heap a buffer takes as mallinfo2 counts it (glibc: the usable size plus the chunk's size
  // field), so that pooled_bytes covers these buffers exactly: they are small, and counting only
  // their capacity left a tenth of their heap unexplained.
  template <typename V>
  static std::size_t heap_bytes(const V& v) noexcept {
    if (v.capacity() == 0) return 0;
    return malloc_usable_size(const_cast<void*>(static_cast<const void*>(v.data()))) +
           sizeof(std::size_t);
  }
  static void account(std::size_t had, std::size_t has) noexcept {
    if (has > had) pool_reserved_bytes.fetch_add(has - had, std::memory_order_relaxed);
    if (had > has) pool_reserved_bytes.fetch_sub(had - has, std::memory_order_relaxed);
  }

 public:
  // Any thread. An empty vector with room for `n` elements.
  static std::vector<T> take(std::size_t n) {
    Cache& c = cache();
    if (c.spare.empty()) c.refill();
    std::vector<T> v;
    if (!c.spare.empty()) {
      v = std::move(c.spare.back());
      c.spare.pop_back();
    }
    if (v.capacity() < n) {
      const std::size_t had = heap_bytes(v);
      v.reserve(n);
      account(had, heap_bytes(v));
    }
    return v;
  }

  // Any thread. `v` must come from take() and hold no more than it asked room for.
  static void give(std::vector<T>&& v) noexcept {
    v.clear();
    Cache& c = cache();
    if (c.spare.size() == kBatch) c.spill();
    if (c.spare.capacity() == c.spare.size()) return drop(v);  // no room to keep it
    c.spare.push_back(std::move(v));
  }

 private:
  static constexpr std::size_t kBatch = 128;
  static void drop(std::vector<T>& v) noexcept {
    account(heap_bytes(v), 0);
    std::vector<T>().swap(v);
  }
  struct Global {
    std::mutex mu;
    std::vector<std::vector<std::vector<T>>> batches;
    // Emptied lists of batches taken, for the next spill: a list is never freed, so that the
    // pool's bytes only follow its peak.
    std::vector<std::vector<std::vector<T>>> empty_lists;
  };
  static Global& global() {
    static auto* g = new Global;  // never destroyed: threads may exit after static destructors
    return *g;
  }
  struct Cache {
    std::vector<std::vector<T>> spare;
    Cache() { reserve(); }
    // A full cache's room is made once per batch: push_back in give() never allocates.
    void reserve() noexcept {
      try {
        spare.reserve(kBatch);
        account(0, heap_bytes(spare));
      } catch (...) {  // then give() drops what it is given
      }
    }
    void spill() noexcept {
      if (spare.empty()) return;
      Global& g = global();
      std::lock_guard l(g.mu);
      try {
        g.batches.push_back(std::move(spare));
      } catch (...) {  // no room to record the batch: let these go
        for (auto& v : spare) drop(v);
        account(heap_bytes(spare), 0);
      }
      spare = {};
      if (g.empty_lists.empty()) return reserve();
      spare = std::move(g.empty_lists.back());
      g.empty_lists.pop_back();
    }
    void refill() {
      Global& g = global();
      std::lock_guard l(g.mu);
      if (g.batches.empty()) return;
      if (g.empty_lists.size() == g.empty_lists.capacity())  // may throw: before anything moves
        g.empty_lists.reserve(2 * g.empty_lists.size() + 8);
      spare.swap(g.batches.back());
      g.empty_lists.push_back(std::move(g.batches.back()));
      g.batches.pop_back();
    }
    ~Cache() {
      spill();
      account(heap_bytes(spare), 0);  // the list spill() made room in goes with the thread
    }
  };
  static Cache& cache() {
    thread_local Cache c;
    return c;
  }
};

}  // namespace cei::rt
