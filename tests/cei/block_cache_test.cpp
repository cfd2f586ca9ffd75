// The block cache behind cei::Array: large freed blocks come back for the next allocation of
// their size class, the bound holds (oldest evicted first), small blocks are not kept, and arrays
// reshaped for overwrite reuse their storage without writing it.
#include <cei/array.hpp>
#include <cei/block_cache.hpp>

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(BlockCache, FreedLargeBlockComesBackForItsSizeClass) {
  cei::BlockCache cache(16 * kMiB);
  void* a = cache.allocate(4 * kMiB);
  std::memset(a, 1, 4 * kMiB);
  cache.deallocate(a, 4 * kMiB);
  EXPECT_EQ(cache.cached_bytes(), 4 * kMiB);
  EXPECT_EQ(cache.allocate(4 * kMiB - 100), a) << "same size class: the same block";
  EXPECT_EQ(cache.cached_bytes(), 0u);
  void* b = cache.allocate(4 * kMiB);  // nothing cached: a new block
  EXPECT_NE(b, a);
  cache.deallocate(a, 4 * kMiB - 100);
  cache.deallocate(b, 4 * kMiB);
  void* c = cache.allocate(3 * kMiB);  // another class: not one of those
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  EXPECT_EQ(cache.allocate(4 * kMiB), b) << "the most recently freed first";
  cache.deallocate(b, 4 * kMiB);
  cache.deallocate(c, 3 * kMiB);
}

TEST(BlockCache, SizeClassesRoundUpByAtMostAQuarter) {
  EXPECT_EQ(cei::BlockCache::size_class(1000), 1000u);  // below 1 MiB: exact, not cached
  EXPECT_EQ(cei::BlockCache::size_class(kMiB), kMiB);
  EXPECT_EQ(cei::BlockCache::size_class(kMiB + 1), kMiB + kMiB / 4);
  EXPECT_EQ(cei::BlockCache::size_class(256 * kMiB), 256 * kMiB);
  for (std::size_t n = kMiB; n < 64 * kMiB; n += 12345 * 7) {
    std::size_t c = cei::BlockCache::size_class(n);
    EXPECT_GE(c, n);
    EXPECT_LE(c - n, n / 4);
  }
}

TEST(BlockCache, BoundEvictsTheOldestAndSmallBlocksAreNotKept) {
  cei::BlockCache cache(10 * kMiB);
  std::vector<void*> blocks;
  for (int i = 0; i < 3; ++i) blocks.push_back(cache.allocate(4 * kMiB));
  for (void* p : blocks) cache.deallocate(p, 4 * kMiB);
  EXPECT_EQ(cache.cached_bytes(), 8 * kMiB) << "the third block would pass the bound";
  void* x = cache.allocate(4 * kMiB);
  void* y = cache.allocate(4 * kMiB);
  EXPECT_EQ(x, blocks[2]);
  EXPECT_EQ(y, blocks[1]);  // blocks[0], the oldest, went back to the heap
  cache.deallocate(x, 4 * kMiB);
  cache.deallocate(y, 4 * kMiB);

  void* big = cache.allocate(16 * kMiB);  // larger than the bound: never kept
  cache.deallocate(big, 16 * kMiB);
  void* small = cache.allocate(kMiB / 2);
  cache.deallocate(small, kMiB / 2);
  EXPECT_EQ(cache.cached_bytes(), 8 * kMiB);

  cei::BlockCache off(0);  // CEI_BLOCK_CACHE_MB=0
  void* p = off.allocate(2 * kMiB);
  off.deallocate(p, 2 * kMiB);
  EXPECT_EQ(off.cached_bytes(), 0u);
}

// Without the advice, the pages of a new block are mapped one fault at a time on first touch.
TEST(BlockCache, NewBlocksArePopulatedUpToTheBytesAskedFor) {
  if (madvise(nullptr, 0, 23 /* MADV_POPULATE_WRITE */) != 0 && errno == EINVAL)
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  cei::BlockCache cache(0);
  const std::size_t bytes = 40 * kMiB + 12345;  // class 48 MiB
  char* p = static_cast<char*>(cache.allocate(bytes));
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  auto resident = [&](std::size_t from, std::size_t to) {  // pages wholly inside [from, to)
    auto base = reinterpret_cast<std::uintptr_t>(p);
    auto begin = (base + from + page - 1) / page * page, end = (base + to) / page * page;
    std::vector<unsigned char> in((end - begin) / page);
    EXPECT_EQ(mincore(reinterpret_cast<void*>(begin), end - begin, in.data()), 0);
    std::size_t n = 0;
    for (auto c : in) n += c & 1;
    return std::pair{n, in.size()};
  };
  auto [asked, of] = resident(0, bytes);
  EXPECT_EQ(asked, of) << "every page of the bytes asked for is mapped before any is touched";
  auto [slack, of_slack] = resident(bytes + page, cei::BlockCache::size_class(bytes));
  EXPECT_GT(of_slack, 0u);
  EXPECT_EQ(slack, 0u) << "the size class's slack stays unmapped";
  cache.deallocate(p, bytes);
}

TEST(BlockCache, BoundComesFromTheEnvironmentAndBadTextIsReported) {
  const std::size_t fallback = cei::BlockCache::limit_from(nullptr);
  EXPECT_GT(fallback, 0u);
  EXPECT_EQ(cei::BlockCache::limit_from(""), fallback);
  EXPECT_EQ(cei::BlockCache::limit_from("12"), 12 * kMiB);
  EXPECT_EQ(cei::BlockCache::limit_from("0"), 0u) << "0 turns the cache off";
  for (const char* bad : {"abc", "12MB", "-5", " 7", "99999999999999999999"}) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(cei::BlockCache::limit_from(bad), fallback) << bad;
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find(std::string("CEI_BLOCK_CACHE_MB='") + bad + "'"), std::string::npos)
        << said;
  }
  testing::internal::CaptureStderr();
  cei::BlockCache::limit_from("64");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "a good value is taken silently";
}

TEST(BlockCache, ThreadsShareOneCacheSafely) {
  cei::BlockCache cache(64 * kMiB);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (std::size_t i = 0; i < 200; ++i) {
        // Unsigned throughout: with a signed (t + i) % 3, GCC 12 at -O3 follows a negative
        // remainder into a wrapped, tiny n and warns that p[n - 1] is out of bounds.
        const std::size_t n = (1 + (static_cast<std::size_t>(t) + i) % 3) * kMiB;
        auto* p = static_cast<unsigned char*>(cache.allocate(n));
        p[0] = p[n - 1] = static_cast<unsigned char>(t);
        cache.deallocate(p, n);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(cache.cached_bytes(), 64 * kMiB);
}

TEST(BlockCache, ArraysReuseBlocksAndReshapeForOverwriteKeepsStorage) {
  const std::size_t n = 2 * kMiB / sizeof(float);
  const float* first = nullptr;
  {
    cei::Vector<float> v(n);
    first = v.data();
    EXPECT_EQ(v(n - 1), 0.f) << "constructed arrays are zero-filled";
  }
  cei::Vector<float> w(n);  // the block v freed (the process cache is on by default)
  EXPECT_EQ(w.data(), first);
  w(7) = 3.f;
  const float* at = w.data();
  w.resize_for_overwrite({n});  // same size: same storage, elements left as they were
  EXPECT_EQ(w.data(), at);
  EXPECT_EQ(w(7), 3.f);
  w.resize_for_overwrite({n / 2});
  EXPECT_EQ(w.extent(0), n / 2);
  EXPECT_EQ(w.size(), n / 2);
  w.resize({4});
  EXPECT_EQ(w, cei::Vector<float>(4)) << "resize still zero-fills";
}

}  // namespace
