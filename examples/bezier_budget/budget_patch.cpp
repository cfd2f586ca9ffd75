#include "budget_patch.hpp"

#include "bezier.hpp"

#include <algorithm>
#include <vector>

namespace exact {

cei::Matrix<float> patch(const cei::Matrix<float>& control, int side, int resolution, int row0,
                         int col0, int block, int /*weight*/) {
  return bezier::patch(control, side, resolution, row0, col0, block);
}

}  // namespace exact

namespace coarse {

cei::Matrix<float> patch(const cei::Matrix<float>& control, int side, int resolution, int row0,
                         int col0, int block, int /*weight*/) {
  // The sample points: every kStride-th offset, and the block's last one.
  std::vector<int> at;
  for (int k = 0; k < block; k += kStride) at.push_back(k);
  if (at.back() != block - 1) at.push_back(block - 1);
  const std::size_t n = at.size();
  std::vector<float> h(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      h[i * n + j] = bezier::patch(control, side, resolution, row0 + at[i], col0 + at[j], 1)(0, 0);
  cei::Matrix<float> out(block, block);
  std::size_t i = 0;
  for (int r = 0; r < block; ++r) {
    while (i + 2 < n && at[i + 1] <= r) ++i;
    const float fr =
        n > 1 ? static_cast<float>(r - at[i]) / static_cast<float>(at[i + 1] - at[i]) : 0.f;
    std::size_t j = 0;
    for (int c = 0; c < block; ++c) {
      while (j + 2 < n && at[j + 1] <= c) ++j;
      if (n == 1) {
        out(r, c) = h[0];
        continue;
      }
      const float fc = static_cast<float>(c - at[j]) / static_cast<float>(at[j + 1] - at[j]);
      const float top = h[i * n + j] * (1 - fc) + h[i * n + j + 1] * fc;
      const float bottom = h[(i + 1) * n + j] * (1 - fc) + h[(i + 1) * n + j + 1] * fc;
      out(r, c) = top * (1 - fr) + bottom * fr;
    }
  }
  return out;
}

}  // namespace coarse
