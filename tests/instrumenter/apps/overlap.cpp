// Independent CE calls run at once: the peak number of CEs running together reaches the number of
// worker threads (CEI_CPU_CORES=4), also for calls whose results feed other CEs, directly or
// through local variables.
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
  ops::reset_peak();
  // The same through locals: a scalar result in a variable that only feeds a CE is not waited
  // for (with a wait before each consumer, at most three calls overlap, for a moment).
  long r1 = ops::busy(9, 150);
  long s1 = ops::busy(r1, 150);
  long r2 = ops::busy(10, 150);
  long s2 = ops::busy(r2, 150);
  long r3 = ops::busy(11, 150);
  long s3 = ops::busy(r3, 150);
  long r4 = ops::busy(12, 150);
  long s4 = ops::busy(r4, 150);
  cei::barrier();
  std::printf("via locals: sum=%ld peak=%ld\n", s1 + s2 + s3 + s4, ops::peak_concurrency());
  return 0;
}
