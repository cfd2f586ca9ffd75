// Significance above 0 runs the accurate versions: the program prints what its -seq twin prints.
// A call the program writes to the approximation itself stays that call.
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
  LVec a = {1, 2, 3}, b = {8, 6, 4}, c = {5, 7, 9};
  approx_exact::smooth(a, 100);
  approx_exact::smooth(a, 1);
  approx_exact::halve(b, 50);
  approx_fast::smooth(c, 7);
  approx_exact::smooth(c, 100);
  print("a", a);
  print("b", b);
  print("c", c);
  std::printf("total: %ld\n", approx_exact::total(b));
  return 0;
}
