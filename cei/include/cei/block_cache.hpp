// Storage for cei::Array: large blocks (>= 1 MiB) that are freed are kept, up to a bound, and
// handed back for the next allocation of the same size class. The first touch of fresh memory
// (one page fault per 4 KiB) costs more than moving the same bytes over loopback TCP, and a worker
// node or a client that stores, frees and receives arrays of one size over and over would pay it
// on every transfer; reused blocks are already resident. Huge pages were measured slower (THP
// compaction on first touch), so the blocks are ordinary memory.
//
//   CEI_BLOCK_CACHE_MB=512   bound of the cache (default: 1 GiB or an eighth of RAM, the smaller)
//   CEI_BLOCK_CACHE_MB=0     no cache: every block goes back to the C++ heap
//
//   std::vector<float, cei::BlockAllocator<float>> v;   // what cei::Array uses
#pragma once

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

namespace cei {

class BlockCache {
 public:
  static constexpr std::size_t kMinBlock = std::size_t{1} << 20;  // smaller blocks: plain new

  explicit BlockCache(std::size_t limit_bytes) : limit_(limit_bytes) {}
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;
  ~BlockCache() {
    for (auto& block : blocks_) ::operator delete(block.second);
  }

  // The process's cache, bounded by CEI_BLOCK_CACHE_MB (read once). Never destroyed: arrays freed
  // by other static objects' destructors still return their blocks here.
  static BlockCache& instance() {
    static BlockCache* cache = new BlockCache(limit_from(std::getenv("CEI_BLOCK_CACHE_MB")));
    return *cache;
  }

  // The bound CEI_BLOCK_CACHE_MB's text asks for, in bytes (null or empty: the default). Text that
  // is not a whole number of MiB is reported on stderr and the default kept: an allocator has no
  // caller to refuse it to, and the cache only saves time.
  static std::size_t limit_from(const char* mb) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    std::size_t ram = pages > 0 && page > 0
                          ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                          : 0;
    const std::size_t fallback = std::min<std::size_t>(std::size_t{1} << 30, ram / 8);
    if (!mb || !*mb) return fallback;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(mb, &end, 10);
    if (std::isdigit(static_cast<unsigned char>(*mb)) && *end == '\0' && errno == 0 &&
        v <= (std::numeric_limits<std::size_t>::max() >> 20))
      return static_cast<std::size_t>(v) << 20;
    std::fprintf(stderr,
                 "cei: CEI_BLOCK_CACHE_MB='%s' is not a whole number of MiB; the block cache keeps "
                 "its default bound of %zu MiB\n",
                 mb, fallback >> 20);
    return fallback;
  }

  // Sizes are rounded up to four classes per power of two, so that a block serves requests a
  // little smaller than the one it was made for (at most a quarter more address space; pages
  // never touched cost no memory).
  static std::size_t size_class(std::size_t bytes) {
    if (bytes < kMinBlock) return bytes;
    std::size_t step = std::bit_floor(bytes) / 4;
    return (bytes + step - 1) / step * step;
  }

  void* allocate(std::size_t bytes) {
    if (bytes < kMinBlock) return ::operator new(bytes);
    std::size_t size = size_class(bytes);
    {
      std::lock_guard lock(mu_);
      // The most recently freed first: its pages are the likeliest to be resident.
      for (auto b = blocks_.rbegin(); b != blocks_.rend(); ++b) {
        if (b->first != size) continue;
        void* p = b->second;
        blocks_.erase(std::next(b).base());
        cached_ -= size;
        return p;
      }
    }
    void* p = ::operator new(size);
    populate(p, bytes);
    return p;
  }

  void deallocate(void* p, std::size_t bytes) noexcept {
    if (bytes < kMinBlock) return ::operator delete(p);
    std::size_t size = size_class(bytes);
    std::lock_guard lock(mu_);
    if (size > limit_) return ::operator delete(p);
    try {
      blocks_.emplace_back(size, p);
    } catch (const std::bad_alloc&) {
      return ::operator delete(p);
    }
    cached_ += size;
    // Past the bound, the oldest go back to the heap.
    std::size_t evicted = 0;
    while (cached_ > limit_) {
      cached_ -= blocks_[evicted].first;
      ::operator delete(blocks_[evicted++].second);
    }
    blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<std::ptrdiff_t>(evicted));
  }

  std::size_t cached_bytes() const {
    std::lock_guard lock(mu_);
    return cached_;
  }
  std::size_t limit() const { return limit_; }

 private:
  // Maps a new block's pages in one call (MADV_POPULATE_WRITE, Linux 5.14) instead of a page fault
  // per 4 KiB on first touch: measured twice as fast for 256 MiB written once, as a value received
  // from a node or a client is. Only the bytes asked for, so the size class's slack stays unmapped.
  // Older kernels refuse the advice; the pages are then faulted in as before.
  static void populate(void* p, std::size_t bytes) noexcept {
#if defined(__linux__)
    constexpr int kPopulateWrite = 23;  // MADV_POPULATE_WRITE, absent from older headers
    auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    auto begin = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
    auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, kPopulateWrite);
#else
    (void)p;
    (void)bytes;
#endif
  }

  mutable std::mutex mu_;
  std::size_t limit_;
  std::size_t cached_ = 0;
  std::vector<std::pair<std::size_t, void*>> blocks_;  // oldest first
};

// An allocator over BlockCache::instance() (over-aligned types, which plain new cannot serve, use
// std::allocator's storage). Elements are default-initialised when constructed without a value,
// so that storage made only to be overwritten (received bytes) is not written twice; cei::Array
// passes T{} where it promises zeros.
template <typename T>
struct BlockAllocator {
  using value_type = T;
  static constexpr bool kCached = alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__;

  BlockAllocator() = default;
  template <typename U>
  BlockAllocator(const BlockAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if constexpr (kCached) {
      if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
      return static_cast<T*>(BlockCache::instance().allocate(n * sizeof(T)));
    } else {
      return std::allocator<T>().allocate(n);
    }
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if constexpr (kCached)
      BlockCache::instance().deallocate(p, n * sizeof(T));
    else
      std::allocator<T>().deallocate(p, n);
  }

  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  friend bool operator==(const BlockAllocator&, const BlockAllocator&) { return true; }
};

}  // namespace cei
