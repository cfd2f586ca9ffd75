#include "canny.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace canny {
namespace {

constexpr int kGauss[5][5] = {
    {2, 4, 5, 4, 2}, {4, 9, 12, 9, 4}, {5, 12, 15, 12, 5}, {4, 9, 12, 9, 4}, {2, 4, 5, 4, 2}};

int clamp_index(int i, int n) {
  return std::clamp(i, 0, n - 1);
}

// tan(22.5°) ~ 414/1000: the same integer test as canny.cl.
int direction(int gx, int gy) {
  const int ax = std::abs(gx), ay = std::abs(gy);
  if (ay * 1000 <= ax * 414) return 0;
  if (ay * 414 >= ax * 1000) return 2;
  return (gx > 0) == (gy > 0) ? 1 : 3;
}

}  // namespace

cei::Matrix<int> gaussian(const cei::Matrix<int>& image) {
  const int rows = static_cast<int>(image.extent(0)), cols = static_cast<int>(image.extent(1));
  cei::Matrix<int> out(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      int acc = 0;
      for (int i = -2; i <= 2; ++i)
        for (int j = -2; j <= 2; ++j)
          acc += kGauss[i + 2][j + 2] * image(clamp_index(r + i, rows), clamp_index(c + j, cols));
      out(r, c) = (acc + 79) / 159;
    }
  return out;
}

cei::Array<int, 3> sobel(const cei::Matrix<int>& blurred) {
  const int rows = static_cast<int>(blurred.extent(0)), cols = static_cast<int>(blurred.extent(1));
  cei::Array<int, 3> out(2, rows, cols);
  auto at = [&](int r, int c) { return blurred(clamp_index(r, rows), clamp_index(c, cols)); };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int gx = (at(r - 1, c + 1) + 2 * at(r, c + 1) + at(r + 1, c + 1)) -
                     (at(r - 1, c - 1) + 2 * at(r, c - 1) + at(r + 1, c - 1));
      const int gy = (at(r + 1, c - 1) + 2 * at(r + 1, c) + at(r + 1, c + 1)) -
                     (at(r - 1, c - 1) + 2 * at(r - 1, c) + at(r - 1, c + 1));
      out(0, r, c) = std::abs(gx) + std::abs(gy);
      out(1, r, c) = direction(gx, gy);
    }
  return out;
}

cei::Matrix<int> nonmax(const cei::Array<int, 3>& gradient) {
  const int rows = static_cast<int>(gradient.extent(1)),
            cols = static_cast<int>(gradient.extent(2));
  // Neighbour offsets (dr, dc) across the edge for each direction.
  constexpr int kStep[4][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}};
  cei::Matrix<int> out(rows, cols);
  for (int r = 1; r + 1 < rows; ++r)
    for (int c = 1; c + 1 < cols; ++c) {
      const int m = gradient(0, r, c), d = gradient(1, r, c);
      const int dr = kStep[d][0], dc = kStep[d][1];
      if (m > gradient(0, r + dr, c + dc) && m >= gradient(0, r - dr, c - dc)) out(r, c) = m;
    }
  return out;
}

cei::Matrix<int> hysteresis(const cei::Matrix<int>& thin, int width, int low, int high) {
  const int rows = static_cast<int>(thin.extent(0)), cols = static_cast<int>(thin.extent(1));
  if (width != cols) throw std::invalid_argument("canny::hysteresis: width != thin.extent(1)");
  cei::Matrix<int> out(rows, cols);
  std::vector<int> stack;
  for (int k = 0; k < rows * cols; ++k)
    if (thin.data()[k] >= high) {
      out.data()[k] = 255;
      stack.push_back(k);
    }
  while (!stack.empty()) {
    const int r = stack.back() / cols, c = stack.back() % cols;
    stack.pop_back();
    for (int i = std::max(r - 1, 0); i <= std::min(r + 1, rows - 1); ++i)
      for (int j = std::max(c - 1, 0); j <= std::min(c + 1, cols - 1); ++j)
        if (out(i, j) == 0 && thin(i, j) >= low) {
          out(i, j) = 255;
          stack.push_back(i * cols + j);
        }
  }
  return out;
}

}  // namespace canny
