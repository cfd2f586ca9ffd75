// Independent CE calls run at once: the peak number of CEs running together reaches the number of
// worker threads (CEI_CPU_CORES=4), also for calls whose results feed other CEs directly.
#include <cei/cei.hpp>

#include <cstdio>

#include "ops.hpp"

int main() {
  long a = ops::busy(1, 150);
  long b = ops::busy(2, 150);
  long c = ops::busy(3, 150);
  long d = ops::busy(4, 150);
  cei::barrier();
  std::printf("independent: sum=%ld peak=%ld\n", a + b + c + d, ops::peak_concurrency());
  ops::reset_peak();
  // Each inner result goes straight into its outer task: no host wait between them.
  long e = ops::busy(ops::busy(5, 150), 150);
  long f = ops::busy(ops::busy(6, 150), 150);
  long g = ops::busy(ops::busy(7, 150), 150);
  long h = ops::busy(ops::busy(8, 150), 150);
  cei::barrier();
  std::printf("chained: sum=%ld peak=%ld\n", e + f + g + h, ops::peak_concurrency());
  return 0;
}
