// The task mix shared by the memory test (100,000 tasks, heap measured) and cei-runtime-million
// (1,000,000 tasks, resident memory printed): inout chains on a scalar and a vector, renamed `out`
// writes, returned values assigned to a variable, empty tasks, and a host write every 1,000 tasks
// (which also bounds the tasks in flight).
#pragma once

#include "test_ces.hpp"

#include <cei/rt/api.hpp>

#include <unistd.h>

#include <cstdint>
#include <fstream>

namespace test_ces {

struct MixedData {
  Vec a{1, 2, 3}, b{4, 5, 6}, c;
  std::int64_t x = 0;  // incremented by every fifth task
};

// Submits tasks first .. first+n-1 of the mix (numbered, so a run can be split in pieces).
inline void mixed_tasks(long first, long n, MixedData& d) {
  namespace rt = cei::rt;
  for (long i = first; i < first + n; ++i) {
    switch (i % 5) {
      case 0:
        rt::call<void>(increment, rt::inout<std::int64_t>(d.x));
        break;
      case 1:
        rt::call<void>(scale_add, rt::inout<Vec>(d.a), rt::in<Vec>(d.b), rt::in<std::int64_t>(1));
        break;
      case 2:
        rt::call<void>(derive, rt::in<Vec>(d.a), rt::out<Vec>(d.b), rt::in<std::int64_t>(0));
        break;
      case 3:
        rt::assign(d.c, rt::call<Vec>(combine, rt::in<Vec>(d.a), rt::in<Vec>(d.b)));
        break;
      case 4:
        rt::call<void>(nothing);
        break;
    }
    if (i % 1000 == 999)
      for (auto& v : rt::sync(d.a)) v %= 97;
  }
}

// How many of tasks first .. first+n-1 increment x.
inline std::int64_t increments(long first, long n) {
  auto upto = [](long end) { return end <= 0 ? 0 : (end - 1) / 5 + 1; };  // multiples of 5 < end
  return upto(first + n) - upto(first);
}

// Current resident set in KiB (not the peak, which a freed burst would keep high).
inline long resident_kib() {
  long pages_total = 0, pages_resident = 0;
  std::ifstream("/proc/self/statm") >> pages_total >> pages_resident;
  return pages_resident * (sysconf(_SC_PAGESIZE) / 1024);
}

}  // namespace test_ces
