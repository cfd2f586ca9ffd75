// Returned values: assignment, declaration, auto, nested calls, a result used in an expression.
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec a = {1, 2, 3}, b = {10, 20, 30};
  Vec c;
  c = ops::add(a, b);
  Vec d = ops::add(c, a);
  auto e = ops::add(ops::add(a, b), ops::add(c, d));
  long total = ops::sum(e) + ops::sum(d);
  std::printf("c0=%ld d2=%ld e1=%ld total=%ld\n", c[0], d[2], e[1], total);
  return 0;
}
