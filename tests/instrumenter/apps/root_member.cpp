// inout arguments through a user class's accessor (`g.row(i)` returns an element of g.rows) and
// a free function's (`second(g)`): the writes land in g, and later host reads of g wait.
#include <cstdio>

#include "rows.hpp"

struct Grid {
  std::vector<Row> rows;
  Row& row(int i) { return rows[i]; }
  // Inside the class: row(i) is this->rows[i], and the read of rows waits for the tasks.
  float update() {
    vec::bump(row(1), 0.25f);
    vec::bump(row(2), 0.5f);
    return rows[1][0] + rows[2][0];
  }
};

Row& second(Grid& g) { return g.rows[1]; }

int main() {
  Grid g{std::vector<Row>(3, Row(5, 1.0f))};
  vec::bump(g.row(0), 1.5f);
  vec::bump(g.row(2), 2.0f);
  vec::bump(second(g), 7.0f);
  vec::bump(g.row(0), 1.0f);
  std::printf("g %g %g %g\n", g.rows[0][0], g.rows[1][1], g.rows[2][4]);
  vec::axpy(g.row(1), g.row(2), g.row(0));
  std::printf("g %g %g\n", g.row(0)[3], second(g)[0]);
  const float sum = g.update();
  std::printf("update %g, g %g\n", sum, g.rows[2][1]);
  return 0;
}
