// A CE with two native versions: calling either may run either; the results are the same.
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec v = {5, 3, 9, 1, 7};
  Vec x = sort_a::sort(v);
  Vec y = sort_b::sort(ops::add(v, v));
  for (long e : x) std::printf("%ld ", e);
  for (long e : y) std::printf("%ld ", e);
  std::printf("\n");
  return 0;
}
