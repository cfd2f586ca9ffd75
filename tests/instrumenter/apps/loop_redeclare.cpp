// A loop that declares the same variables every iteration: the same addresses are written and read
// by tasks of different iterations (WAR/WAW on one address).
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec total(4, 0);
  std::vector<long> sums;
  for (long i = 0; i < 6; ++i) {
    Vec t = ops::iota(4, i * 10);
    long s = ops::sum(t);
    total = ops::add(total, t);
    sums.push_back(s);
  }
  for (long s : sums) std::printf("%ld ", s);
  std::printf("\ntotal=%ld %ld %ld %ld\n", total[0], total[1], total[2], total[3]);
  return 0;
}
