// inout parameters: consecutive tasks update one variable; the host modifies it in between; the
// elements of a container are updated through a range-for reference.
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec v = {1, 2, 3};
  ops::scale(v, 2);
  ops::scale(v, 3);
  v[1] += 100;  // waits for both tasks
  ops::scale(v, -1);
  std::printf("v=%ld %ld %ld\n", v[0], v[1], v[2]);

  std::vector<Vec> rows(3, Vec{1, 1});
  long k = 2;
  for (auto& row : rows) {
    ops::scale(row, k);
    k += 1;
  }
  for (const auto& row : rows) std::printf("row %ld %ld\n", row[0], row[1]);
  return 0;
}
