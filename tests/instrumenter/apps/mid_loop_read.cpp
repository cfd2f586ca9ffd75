// The host reads a result in the middle of a loop of tasks; a lambda reads it by reference.
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec acc(3, 0);
  Vec step = {1, 2, 3};
  auto show = [&](long i) { std::printf("i=%ld acc=%ld %ld %ld\n", i, acc[0], acc[1], acc[2]); };
  for (long i = 0; i < 9; ++i) {
    acc = ops::add(acc, step);
    if (i % 3 == 2) show(i);
    if (i == 4) step[0] = 100;
  }
  long last = ops::sum(acc);
  auto copy = [last] { return last * 2; };
  std::printf("last=%ld copy=%ld\n", last, copy());
  return 0;
}
