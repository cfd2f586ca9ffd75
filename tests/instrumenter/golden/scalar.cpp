// Golden input: scalar CE results kept in variables feed other CEs unsynced (see scalar.expected).
#include <cstdio>

#include "ops.hpp"

long feed(long seed) {
  long r = ops::busy(seed, 1);
  long q = ops::busy(r, 1);        // r by address: no wait
  r = ops::checked_div(r, q);      // both by address; r's new value is a task's
  std::vector<long> v(2);
  v[0] = ops::busy(seed, 1);
  long e = ops::busy(v[0], 1);     // an element: synced through v, copied
  for (long i = 0; i < 2; ++i) q = ops::busy(i, 1);  // i: no task writes it, never synced
  std::printf("%ld\n", r + e);     // the host reads: waits
  return ops::busy(q, 1);
}
