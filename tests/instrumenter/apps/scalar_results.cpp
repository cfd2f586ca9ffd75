// Scalar CE results kept in locals feed other CEs as dependencies: the eight `work` calls run at
// once, each result goes to the accumulator's task, and the host waits only where it reads.
//   instr_scalar_results [iters]   (bench/scalar_results.sh: iters for ~100 ms a call)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ops.hpp"

int main(int argc, char** argv) {
  const long iters = argc > 1 ? std::atol(argv[1]) : 200000;
  double acc = 0;
  for (long i = 0; i < 8; ++i) {
    double r = ops::work(i, iters);
    ops::accumulate(acc, r);
  }
  std::printf("acc=%.17g\n", acc);

  // Written twice by tasks before a task reads it: the reader gets the second value.
  double z = ops::work(20, 1000);
  z = ops::work(21, 1000);
  ops::accumulate(acc, z);
  // In and inout of one variable: the `in` is the value from before the call.
  ops::accumulate(acc, acc);
  // The host reads, then writes: the next task reads the host's new value.
  double x = ops::work(22, 1000);
  std::printf("x=%.17g\n", x);
  x = x * 3;
  ops::accumulate(acc, x);
  // An element is synced through its vector, then copied.
  std::vector<double> parts(2);
  parts[1] = ops::work(23, 1000);
  ops::accumulate(acc, parts[1]);
  std::printf("acc=%.17g\n", acc);
  return 0;
}
