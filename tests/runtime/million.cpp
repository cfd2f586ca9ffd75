// cei-runtime-million: 1,000,000 tasks (inout chains, renamed writes, results, empty tasks)
// with the peak RSS printed every 100,000 tasks: it must stay flat (within 2 MiB of the
// first 100,000 tasks' peak).
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>

#include <sys/resource.h>

#include <cstdio>

using namespace test_ces;
namespace rt = cei::rt;

namespace {
long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}
}  // namespace

int main() {
  Vec a{1, 2, 3}, b{4, 5, 6}, c;
  std::int64_t x = 0;
  long first = 0;
  for (int i = 1; i <= 1000000; ++i) {
    switch (i % 5) {
      case 0:
        rt::call<void>(increment, rt::inout<std::int64_t>(x));
        break;
      case 1:
        rt::call<void>(scale_add, rt::inout<Vec>(a), rt::in<Vec>(b), rt::in<std::int64_t>(1));
        break;
      case 2:
        rt::call<void>(derive, rt::in<Vec>(a), rt::out<Vec>(b), rt::in<std::int64_t>(0));
        break;
      case 3:
        rt::assign(c, rt::call<Vec>(combine, rt::in<Vec>(a), rt::in<Vec>(b)));
        break;
      case 4:
        rt::call<void>(nothing);
        break;
    }
    if (i % 1000 == 0)
      for (auto& v : rt::sync(a)) v %= 97;
    if (i % 100000 == 0) {
      cei::barrier();
      long rss = peak_rss_kib();
      if (!first) first = rss;
      std::printf("%7d tasks  peak RSS %ld KiB\n", i, rss);
    }
  }
  long last = peak_rss_kib();
  // A leak of even 8 bytes per task would add 7 MiB over the last 900,000 tasks.
  bool flat = last <= first + 2048;
  std::printf("x = %lld (expected 200000); peak RSS %s (%ld -> %ld KiB)\n",
              static_cast<long long>(x), flat ? "flat" : "GREW", first, last);
  return x == 200000 && flat ? 0 : 1;
}
