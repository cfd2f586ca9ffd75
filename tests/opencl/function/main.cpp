// A chain of CLBlast-backed tasks on one matrix (it stays on the device between them), a result
// made by two library calls, and an out scalar: prints the same as its -seq twin wherever the
// tasks run. The number of device calls goes to stderr, for the test that they ran there.
#include <cstdio>

#include "blas.hpp"
#include "blas_cl.hpp"

int main() {
  const std::size_t n = 48;  // not a multiple of CLBlast's tile sizes: its padding kernels run
  cei::Matrix<float> A(n, n), B(n, n), C(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      A(i, j) = static_cast<float>((i + 2 * j) % 3);
      B(i, j) = static_cast<float>((3 * i + j) % 4);
      C(i, j) = static_cast<float>((i * j) % 5);
    }
  for (int step = 0; step < 3; ++step) blas::gemm(A, B, C);
  cei::Vector<float> row(n);
  for (std::size_t j = 0; j < n; ++j) row(j) = C(n / 2, j);
  cei::Vector<float> twice = blas::scaled(row, 2.0f);
  float total = 0;
  blas::sum(twice, total);
  double weighted = 0;  // exact: integers far below 2^53
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      weighted += static_cast<double>(C(i, j)) * static_cast<double>((7 * i + j) % 11);
  std::printf("C[1][0..3] = %g %g %g %g, weighted sum of C = %.0f\n", static_cast<double>(C(1, 0)),
              static_cast<double>(C(1, 1)), static_cast<double>(C(1, 2)),
              static_cast<double>(C(1, 3)), weighted);
  std::printf("twice[1] = %g, total = %g\n", static_cast<double>(twice(1)),
              static_cast<double>(total));
  std::fprintf(stderr, "device function calls: %d\n", blas_cl::calls.load());
  return 0;
}
