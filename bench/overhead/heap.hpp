// Heap bytes in use (glibc): small-block arena plus mmap'd blocks.
#pragma once

#include <malloc.h>

#include <cstddef>

namespace bench {
inline std::size_t heap_in_use() {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}
}  // namespace bench
