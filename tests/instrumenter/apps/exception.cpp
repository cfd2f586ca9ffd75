// An exception thrown inside a CE reaches the program as itself (a std::domain_error handler
// catches it), at the call: inside a try block the call is waited for, so the statements after it
// do not run. A caught CE exception is thrown once: the CE's output (v of guarded_fill, synced
// again when the function returns) keeps the value it had before the call, as in -seq.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "ops.hpp"

static long guarded_fill(Vec& v, long n) {
  try {
    ops::fill(v, n, 7);  // n < 0: std::length_error before v is written
    return v[0];
  } catch (const std::length_error&) {
    return -1;
  }
}

int main() {
  long ok = ops::checked_div(10, 2);
  std::printf("ok=%ld\n", ok);
  Vec v = {1, 2, 3};
  try {
    long bad = ops::checked_div(1, 0);
    ops::scale(v, 10);  // not run: the call above threw
    std::printf("bad=%ld\n", bad);
  } catch (const std::domain_error& e) {
    std::printf("caught: %s\n", e.what());
  }
  std::printf("sum=%ld\n", ops::sum(v));
  Vec w = {5};
  const long filled = guarded_fill(w, -1);
  std::printf("guarded=%ld w=%ld\n", filled, w[0]);
  long after = ops::checked_div(9, 3);
  std::printf("after=%ld\n", after);
  return 0;
}
