// Recycled fixed-size blocks for the objects every task allocates (the task, its versions, their
// shared_ptr control blocks). The program thread allocates them and workers free them, which
// sends glibc's malloc through its locked cross-thread path on every task; here each thread keeps
// a cache of free blocks and trades whole batches with a global list, one lock per kBatch blocks.
// Blocks are never returned to the system: the pool holds the peak of tasks in flight.
// SparePool does the same for objects that own a buffer (a task's vector of arguments): the
// object itself, emptied, travels back with its buffer.
//
//   auto t = std::allocate_shared<TaskImpl>(PoolAllocator<TaskImpl>{}, ...);
//   std::vector<TaskArg> v = SparePool<std::vector<TaskArg>>::take();  // empty, with capacity
//   v.clear(); SparePool<std::vector<TaskArg>>::give(std::move(v));
#pragma once

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

// Emptied containers kept with their capacity: the thread that frees a task gives its vector,
// the thread that makes the next one takes it, so neither calls malloc for it (nor free across
// threads). Each thread keeps up to kBatch of them and trades whole batches with a global list.
// Like BlockPool, it holds the peak of tasks in flight.
template <typename T>
class SparePool {
 public:
  // Any thread. An empty T, with the capacity of one given back if there is one.
  static T take() {
    Cache& c = cache();
    if (c.spare.empty()) c.refill();
    if (c.spare.empty()) return T{};
    T t = std::move(c.spare.back());
    c.spare.pop_back();
    return t;
  }

  // Any thread. `t` must be empty (cleared).
  static void give(T&& t) noexcept {
    Cache& c = cache();
    if (c.spare.size() == kBatch) c.spill();
    if (c.spare.capacity() == c.spare.size()) return;  // no room to keep it (allocation failed)
    c.spare.push_back(std::move(t));
  }

 private:
  static constexpr std::size_t kBatch = 128;
  struct Global {
    std::mutex mu;
    std::vector<std::vector<T>> batches;
  };
  static Global& global() {
    static auto* g = new Global;  // never destroyed: threads may exit after static destructors
    return *g;
  }
  struct Cache {
    std::vector<T> spare;
    Cache() { reserve(); }
    // A full cache's room is made once per batch: push_back in give() never allocates.
    void reserve() noexcept {
      try {
        spare.reserve(kBatch);
      } catch (...) {  // then give() drops what it is given
      }
    }
    void spill() noexcept {
      if (spare.empty()) return;
      Global& g = global();
      try {
        std::lock_guard l(g.mu);
        g.batches.push_back(std::move(spare));
      } catch (...) {  // no room to record the batch: let these go
      }
      spare = {};
      reserve();
    }
    void refill() {
      Global& g = global();
      std::lock_guard l(g.mu);
      if (g.batches.empty()) return;
      spare.swap(g.batches.back());
      g.batches.pop_back();
    }
    ~Cache() { spill(); }
  };
  static Cache& cache() {
    thread_local Cache c;
    return c;
  }
};

}  // namespace cei::rt
