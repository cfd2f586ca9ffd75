// Tiled Cholesky factorization A = L L^T in single precision, written as an ordinary sequential
// program: the right-looking tile algorithm of StarPU's cholesky_implicit, on the same matrix
// (a Hilbert matrix plus N on the diagonal). Usage: cholesky [N=2048] [TILES]  (TILES divides N;
// TILES x TILES tiles of N/TILES x N/TILES; by default tiles of N/16 within 256..1024: README.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <cei/cei.hpp>

#include "cholesky.hpp"
#include "example_main.hpp"

namespace {

// The matrix entry (i, j), in float as StarPU computes it.
float entry(std::size_t i, std::size_t j, std::size_t n) {
  return 1.0f / (1.0f + static_cast<float>(i) + static_cast<float>(j)) +
         (i == j ? static_cast<float>(n) : 0.0f);
}

// Tile (I, J) at index I * tiles + J; only the lower tiles (J <= I) exist, as only they are read.
std::vector<cei::Matrix<float>> lower_tiles(std::size_t n, std::size_t tiles) {
  const std::size_t b = n / tiles;
  std::vector<cei::Matrix<float>> A(tiles * tiles);
  for (std::size_t I = 0; I < tiles; ++I)
    for (std::size_t J = 0; J <= I; ++J) {
      cei::Matrix<float> t(b, b);
      for (std::size_t i = 0; i < b; ++i)
        for (std::size_t j = 0; j < b; ++j) t(i, j) = entry(I * b + i, J * b + j, n);
      A[I * tiles + J] = std::move(t);
    }
  return A;
}

// L's entry (i, j), i >= j.
float l_at(const std::vector<cei::Matrix<float>>& L, std::size_t i, std::size_t j, std::size_t b,
           std::size_t tiles) {
  return L[(i / b) * tiles + j / b](i % b, j % b);
}

}  // namespace

int run(int argc, char** argv) {
  const std::size_t n = examples::positive<std::size_t>(argc, argv, 1, 2048);
  // Tiles of N/16 (16 x 16 tiles, 816 tasks: work for 16 cores and a GPU), at least 256 (the CPU's
  // BLAS at speed, the tasks long against their dispatch) and at most 1024 (a GPU's SGEMM near its
  // peak, and the diagonal tiles' potrf, on the critical path, short).
  const std::size_t tiles = examples::positive<std::size_t>(
      argc, argv, 2, std::max<std::size_t>(1, n / std::clamp<std::size_t>(n / 16, 256, 1024)));
  if (n == 0 || tiles == 0 || n % tiles != 0) {
    std::fprintf(stderr, "usage: %s [N] [TILES]  (whole numbers; TILES must divide N)\n", argv[0]);
    return 2;
  }
  const std::size_t b = n / tiles;
  std::vector<cei::Matrix<float>> A = lower_tiles(n, tiles);
  // The inverse of each diagonal tile's L, of a tile's size: a device writes it where it is.
  std::vector<cei::Matrix<float>> L_inv(tiles, cei::Matrix<float>(b, b));

  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < tiles; ++k) {
    chol::potrf(A[k * tiles + k], L_inv[k]);
    for (std::size_t i = k + 1; i < tiles; ++i) chol::trsm(L_inv[k], A[i * tiles + k]);
    for (std::size_t i = k + 1; i < tiles; ++i) {
      chol::syrk(A[i * tiles + k], A[i * tiles + i]);
      for (std::size_t j = k + 1; j < i; ++j)
        chol::gemm(A[i * tiles + k], A[j * tiles + k], A[i * tiles + j]);
    }
  }
  cei::barrier();  // the factorization's time, not that of the checks below
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::size_t tasks = tiles + tiles * (tiles - 1) + tiles * (tiles - 1) * (tiles - 2) / 6;
  const double flop = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / 3;
  std::printf("cholesky: n=%zu tiles=%zux%zu block=%zu tasks=%zu\n", n, tiles, tiles, b, tasks);
  std::printf("time %.3f s, %.2f GFlop/s\n", seconds, flop / seconds * 1e-9);

  // A checksum of L, sum of l_ij (i + 1) / (j + 1) over the lower triangle (in double): the BLAS
  // of the CPU and of the device round differently, so versions agree within float rounding, not
  // bit for bit (tests/examples compare it relatively). And the backward error
  // |A x - L (L^T x)| / (|A| |x|) (max norms) for x_i = 1 / (i + 1): O(N^2), where forming L L^T
  // would cost as much as the factorization.
  double checksum = 0;
  std::vector<double> x(n), w(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) x[i] = 1.0 / static_cast<double>(i + 1);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      const float l = l_at(A, i, j, b, tiles);
      checksum += static_cast<double>(l) * static_cast<double>(i + 1) / static_cast<double>(j + 1);
      w[j] += static_cast<double>(l) * x[i];
    }
  double err = 0, norm_a = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double ax = 0, llx = 0, row = 0;
    for (std::size_t j = 0; j < n; ++j) {
      ax += static_cast<double>(entry(i, j, n)) * x[j];
      row += std::fabs(static_cast<double>(entry(i, j, n)));
    }
    for (std::size_t j = 0; j <= i; ++j) llx += static_cast<double>(l_at(A, i, j, b, tiles)) * w[j];
    err = std::fmax(err, std::fabs(ax - llx));
    norm_a = std::fmax(norm_a, row);
  }
  const double residual = err / (norm_a * x[0]);
  // Single precision: a correct factorization leaves a backward error of a few float epsilons.
  constexpr double kTolerance = 1e-5;
  const bool ok = residual < kTolerance;
  std::printf("residual %.3g\n", residual);
  std::printf("accuracy %s (residual below %g)\n", ok ? "ok" : "WRONG", kTolerance);
  std::printf("checksum %.10e\n", checksum);
  return ok ? 0 : 1;
}
