// The matmul example's inputs and its checksum, shared with the StarPU version of the same task
// graph (bench/starpu) so that both compute on the same matrices and print comparable checksums.
#pragma once
#include <cei/cei.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace matmul {

// Tiles of a seeded n x n matrix with entries in [-9, 9], tile (i, k) at index i * nb + k.
inline std::vector<cei::Matrix<int>> random_tiles(std::size_t n, std::size_t block, unsigned seed) {
  std::mt19937 rng(seed);  // mt19937's sequence is fixed by the standard: same matrix everywhere
  const std::size_t nb = n / block;
  std::vector<cei::Matrix<int>> tiles(nb * nb, cei::Matrix<int>(block, block));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      tiles[(i / block) * nb + j / block](i % block, j % block) = static_cast<int>(rng() % 19) - 9;
  return tiles;
}

// FNV-1a over C in row-major order, so a misplaced tile changes it as much as a wrong value.
inline std::uint64_t checksum(const std::vector<cei::Matrix<int>>& tiles, std::size_t n,
                              std::size_t block) {
  const std::size_t nb = n / block;
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      h ^= static_cast<std::uint32_t>(tiles[(i / block) * nb + j / block](i % block, j % block));
      h *= 1099511628211ull;
    }
  return h;
}

}  // namespace matmul
