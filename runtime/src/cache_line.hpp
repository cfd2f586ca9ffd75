// The size of a cache line on the machines CEI runs on (x86-64 and most ARM64 cores): what keeps
// state written by different threads apart (alignas) and what a prefetch covers. (GCC 12's
// std::hardware_destructive_interference_size warns that it may change between compiler flags.)
//
//   struct alignas(kCacheLine) PerWorker { std::atomic<int> busy; };
#pragma once

#include <cstddef>

namespace cei::rt {

inline constexpr std::size_t kCacheLine = 64;

}  // namespace cei::rt
