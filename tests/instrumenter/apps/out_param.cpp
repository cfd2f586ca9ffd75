// out parameters: the task writes the variable; the host reads it afterwards, again and again.
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec v;
  for (long round = 1; round <= 4; ++round) {
    ops::fill(v, round + 2, round * 7);
    std::printf("round %ld: size=%zu first=%ld\n", round, v.size(), v[0]);
  }
  Vec w, x;
  ops::fill(w, 5, 1);
  ops::fill(x, 3, 2);
  Vec y = ops::add(w, x);  // reads the outputs of tasks still running
  std::printf("y=%ld %ld %ld %ld %ld\n", y[0], y[1], y[2], y[3], y[4]);
  return 0;
}
