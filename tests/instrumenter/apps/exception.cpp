// An exception thrown inside a CE reaches the program as itself (a std::domain_error handler
// catches it), at the call: inside a try block the call is waited for, so the statements after it
// do not run.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "ops.hpp"

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
  long after = ops::checked_div(9, 3);
  std::printf("after=%ld\n", after);
  return 0;
}
