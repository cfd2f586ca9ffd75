// Data named after the program's variables (names.cmake): element 3 of C gets three versions, by an
// out argument, a result assigned to it and an inout argument, each read by the next task.
#include <cstdio>
#include <vector>

#include "ops.hpp"

int main() {
  std::vector<Vec> C(4);
  ops::fill(C[3], 4, 1);
  C[3] = ops::add(C[3], C[3]);
  ops::scale(C[3], 5);
  long total = ops::sum(C[3]);
  std::printf("total %ld\n", total);
  return 0;
}
