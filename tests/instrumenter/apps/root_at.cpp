// inout and in arguments through std::vector::at, front and back: the tasks write elements of
// `grid`, and the host's later reads of grid wait for them.
#include <cstdio>

#include "rows.hpp"

int main() {
  std::vector<Row> grid(4, Row(8, 1.0f));
  vec::bump(grid.at(1), 2.0f);
  vec::bump(grid.front(), 3.0f);
  vec::bump(grid.back(), 4.0f);
  vec::bump(grid.at(1), 0.5f);
  std::printf("grid %g %g %g %g\n", grid[0][0], grid[1][7], grid[2][0], grid[3][3]);
  vec::axpy(grid.at(0), grid.at(3), grid.at(2));
  vec::bump(grid.at(2), 1.0f);
  std::printf("grid %g %g\n", grid.at(2)[5], grid.back()[0]);
  return 0;
}
