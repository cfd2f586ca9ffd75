#include "bezier.hpp"

#include <stdexcept>
#include <vector>

namespace bezier {
namespace {

constexpr int kMaxSide = 32;  // bezier.cl's MAX_SIDE

// The side Bernstein polynomials of degree side - 1 at t. Written operation for operation like
// bezier.cl (which turns FP contraction off) so that both versions round alike.
std::vector<float> bernstein(int side, float t) {
  std::vector<float> w(side);
  const int n = side - 1;
  float binomial = 1.f;
  for (int i = 0; i <= n; ++i) {
    float v = binomial;
    for (int p = 0; p < i; ++p) v = v * t;
    for (int p = 0; p < n - i; ++p) v = v * (1.f - t);
    w[i] = v;
    binomial = binomial * static_cast<float>(n - i) / static_cast<float>(i + 1);
  }
  return w;
}

}  // namespace

cei::Matrix<float> patch(const cei::Matrix<float>& control, int side, int resolution, int row0,
                         int col0, int block) {
  if (side < 2 || side > kMaxSide || control.extent(0) != static_cast<std::size_t>(side) ||
      control.extent(1) != static_cast<std::size_t>(side))
    throw std::invalid_argument("bezier::patch: control must be side x side, 2 <= side <= 32");
  if (resolution < 2 || block < 1) throw std::invalid_argument("bezier::patch: bad sizes");
  const float step = 1.f / static_cast<float>(resolution - 1);
  std::vector<std::vector<float>> column_weights(block);
  for (int c = 0; c < block; ++c)
    column_weights[c] = bernstein(side, static_cast<float>(col0 + c) * step);
  cei::Matrix<float> out(block, block);
  for (int r = 0; r < block; ++r) {
    const std::vector<float> bu = bernstein(side, static_cast<float>(row0 + r) * step);
    for (int c = 0; c < block; ++c) {
      const std::vector<float>& bv = column_weights[c];
      float h = 0.f;
      for (int i = 0; i < side; ++i) {
        float row = 0.f;
        for (int j = 0; j < side; ++j) row = row + bv[j] * control(i, j);
        h = h + bu[i] * row;
      }
      out(r, c) = h;
    }
  }
  return out;
}

}  // namespace bezier
