// Blocked integer matrix multiplication C = A B, written as an ordinary sequential program: every
// C tile is the sum of block products, so an n/b x n/b tiling makes (n/b)^3 multiply tasks and
// (n/b)^2 (n/b - 1) add tasks. Usage: matmul [N=512] [BLOCK=128]  (N a multiple of BLOCK).
#include <cstdio>
#include <string>
#include <vector>

#include "example_main.hpp"
#include "matmul.hpp"
#include "tiles.hpp"

int run(int argc, char** argv) {
  const std::size_t n = examples::positive<std::size_t>(argc, argv, 1, 512);
  const std::size_t block = examples::positive<std::size_t>(argc, argv, 2, 128);
  if (n == 0 || block == 0 || n % block != 0) {
    std::fprintf(stderr, "usage: %s [N] [BLOCK]  (N must be a multiple of BLOCK)\n", argv[0]);
    return 2;
  }
  const std::size_t nb = n / block;
  const std::vector<cei::Matrix<int>> A = matmul::random_tiles(n, block, 1);
  const std::vector<cei::Matrix<int>> B = matmul::random_tiles(n, block, 2);

  std::vector<cei::Matrix<int>> C(nb * nb);
  for (std::size_t i = 0; i < nb; ++i)
    for (std::size_t j = 0; j < nb; ++j) {
      C[i * nb + j] = matmul::multiply(A[i * nb], B[j]);
      for (std::size_t k = 1; k < nb; ++k)
        C[i * nb + j] = matmul::add(C[i * nb + j], matmul::multiply(A[i * nb + k], B[k * nb + j]));
    }

  std::printf("matmul: n=%zu block=%zu tasks=%zu\n", n, block, nb * nb * (2 * nb - 1));
  std::printf("checksum %016llx\n", static_cast<unsigned long long>(matmul::checksum(C, n, block)));
  return 0;
}
