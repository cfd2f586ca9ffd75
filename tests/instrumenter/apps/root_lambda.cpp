// A tiled update through an accessor lambda (`tile(i, j)` is an element of A): every task's
// inout tile is tracked under A, independent tiles run at once, and host reads of A and of
// tile(...) wait for the tasks that write them.
#include <cstdio>

#include "rows.hpp"

int main() {
  const int nb = 3;
  std::vector<Row> A(nb * nb);
  for (int t = 0; t < nb * nb; ++t) A[t] = Row(4, static_cast<float>(t % 3));
  auto tile = [&](int i, int j) -> Row& { return A[i * nb + j]; };
  for (int k = 0; k < nb; ++k)
    for (int i = 0; i < nb; ++i)
      for (int j = 0; j <= i; ++j) vec::axpy(tile(i, k), tile(j, k), tile(i, j));
  std::printf("tile(2, 1)[0]=%g\n", tile(2, 1)[0]);
  vec::bump(tile(1, 1), 1.0f);
  for (int t = 0; t < nb * nb; ++t) std::printf("A[%d]=%g %g\n", t, A[t][0], A[t][3]);
  return 0;
}
