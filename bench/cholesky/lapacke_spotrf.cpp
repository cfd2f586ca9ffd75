// The library a user would call instead of writing a tiled Cholesky: LAPACKE_spotrf on the whole
// matrix, with every thread the BLAS starts (OpenBLAS: one per core unless OPENBLAS_NUM_THREADS
// says otherwise). Same single-precision matrix as examples/cholesky (a Hilbert matrix plus N on
// the diagonal), same flop count (N^3 / 3). Prints one line per run:
//   lapacke_spotrf n=N run=R time S s, G GFlop/s
//   cei-lapacke-spotrf N [RUNS=3]
#include <lapacke.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

float entry(std::size_t i, std::size_t j, std::size_t n) {
  return 1.0f / (1.0f + static_cast<float>(i) + static_cast<float>(j)) +
         (i == j ? static_cast<float>(n) : 0.0f);
}

bool whole(const char* s, std::size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0' || v == 0 || s[0] == '-') return false;
  out = static_cast<std::size_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t n = 0, runs = 3;
  if (argc < 2 || argc > 3 || !whole(argv[1], n) || (argc == 3 && !whole(argv[2], runs))) {
    std::fprintf(stderr, "usage: %s N [RUNS=3]  (positive whole numbers)\n", argv[0]);
    return 2;
  }
  std::vector<float> a(n * n);
  for (std::size_t r = 0; r < runs; ++r) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) a[i * n + j] = entry(i, j, n);
    const auto start = std::chrono::steady_clock::now();
    // Column-major 'U' on this symmetric row-major matrix is its lower factor in place: LAPACKE's
    // row-major entry point would time two transposed copies of the matrix beside the spotrf.
    const lapack_int info = LAPACKE_spotrf(LAPACK_COL_MAJOR, 'U', static_cast<lapack_int>(n),
                                           a.data(), static_cast<lapack_int>(n));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (info != 0) {
      std::fprintf(stderr, "lapacke_spotrf: spotrf returned %d\n", static_cast<int>(info));
      return 1;
    }
    const double flop = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / 3;
    std::printf("lapacke_spotrf n=%zu run=%zu time %.4f s, %.2f GFlop/s\n", n, r, s, flop / s * 1e-9);
  }
  return 0;
}
