// Significance 0: the approximation runs where there is one; a droppable CE without one is
// dropped, its inout left as it was, and the tasks after it run on that value. Deterministic:
// tests/instrumenter/CMakeLists.txt holds what it prints.
#include <cstdio>

#include "approx.hpp"

namespace {
void print(const char* name, const LVec& v) {
  std::printf("%s:", name);
  for (long x : v) std::printf(" %ld", x);
  std::printf("\n");
}
}  // namespace

int main() {
  LVec a = {1, 2, 3}, b = {1, 2, 3}, c = {8, 6, 4}, d = {8, 6, 4};
  approx_exact::smooth(a, 0);    // approximate: 10 20 30
  approx_exact::smooth(b, 50);   // accurate: 11 21 31
  approx_exact::halve(c, 0);     // dropped: 8 6 4
  approx_exact::smooth(c, 0);    // after it, on its value: 80 60 40
  approx_exact::halve(d, 100);   // accurate: 4 3 2
  const long t = approx_exact::total(c);
  print("a", a);
  print("b", b);
  print("c", c);
  print("d", d);
  std::printf("total: %ld\n", t);
  return 0;
}
