// An ordinary sequential program. Built by cei_add_application, every blas::saxpy, blas::square
// and blas::sum call below is a task; saxpy-seq is this program as written.
#include <cstdio>

#include "saxpy.hpp"

int main() {
  const std::size_t n = 1 << 16;
  cei::Vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x(i) = 1.0f;
    y(i) = static_cast<float>(i % 7);
  }
  for (int step = 0; step < 4; ++step) blas::saxpy(2.0f, x, y);  // a chain of 4 tasks on y
  cei::Vector<float> sq = blas::square(y);                       // after the last saxpy
  double total = blas::sum(sq);                                  // after square
  std::printf("y[0..2] = %g %g %g, sum of squares = %.1f\n", y(0), y(1), y(2), total);  // waits
  return 0;
}
