#include "digits.hpp"

#include <stdexcept>

namespace digits {

int side_of(std::size_t n) {
  int s = 0;
  while (static_cast<std::size_t>(s + 1) * (s + 1) <= n) ++s;
  if (static_cast<std::size_t>(s) * s != n) throw std::invalid_argument("digits: map not square");
  return s;
}

// Summation order matches digits.cl (bias first, then channel, row, column) so that both
// versions round alike.
cei::Array<float, 3> conv(const cei::Array<float, 3>& input, const cei::Vector<float>& weights,
                          int in_channels, int out_channels) {
  const int batch = static_cast<int>(input.extent(0)), n = static_cast<int>(input.extent(2));
  if (static_cast<int>(input.extent(1)) != in_channels ||
      static_cast<int>(weights.size()) != out_channels * (in_channels * 9 + 1))
    throw std::invalid_argument("digits::conv: shapes do not match the channel counts");
  const int side = side_of(n);
  const float* bias = weights.data() + out_channels * in_channels * 9;
  cei::Array<float, 3> out(batch, out_channels, n);
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out_channels; ++o)
      for (int p = 0; p < n; ++p) {
        const int y = p / side, x = p % side;
        float acc = bias[o];
        for (int i = 0; i < in_channels; ++i)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int yy = y + dy, xx = x + dx;
              if (yy < 0 || yy >= side || xx < 0 || xx >= side) continue;
              acc = acc + weights((o * in_channels + i) * 9 + (dy + 1) * 3 + (dx + 1)) *
                              input(b, i, yy * side + xx);
            }
        out(b, o, p) = acc;
      }
  return out;
}

cei::Array<float, 3> relu(const cei::Array<float, 3>& x) {
  cei::Array<float, 3> out(x.extents());
  for (std::size_t k = 0; k < x.size(); ++k) out.data()[k] = x.data()[k] > 0.f ? x.data()[k] : 0.f;
  return out;
}

cei::Array<float, 3> pool(const cei::Array<float, 3>& x) {
  const int side = side_of(x.extent(2)), half = side / 2;
  cei::Array<float, 3> out(x.extent(0), x.extent(1), static_cast<std::size_t>(half * half));
  for (std::size_t b = 0; b < x.extent(0); ++b)
    for (std::size_t c = 0; c < x.extent(1); ++c)
      for (int y = 0; y < half; ++y)
        for (int xx = 0; xx < half; ++xx) {
          float m = x(b, c, (2 * y) * side + 2 * xx);
          for (int k = 1; k < 4; ++k) {
            const float v = x(b, c, (2 * y + k / 2) * side + 2 * xx + k % 2);
            if (v > m) m = v;
          }
          out(b, c, y * half + xx) = m;
        }
  return out;
}

cei::Matrix<float> dense(const cei::Array<float, 3>& x, const cei::Vector<float>& weights,
                         int inputs, int outputs) {
  const int batch = static_cast<int>(x.extent(0));
  if (static_cast<int>(x.extent(1) * x.extent(2)) != inputs ||
      static_cast<int>(weights.size()) != outputs * (inputs + 1))
    throw std::invalid_argument("digits::dense: shapes do not match the feature counts");
  cei::Matrix<float> out(batch, outputs);
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < outputs; ++o) {
      float acc = weights(outputs * inputs + o);
      for (int i = 0; i < inputs; ++i)
        acc = acc + weights(o * inputs + i) * x.data()[b * inputs + i];
      out(b, o) = acc;
    }
  return out;
}

cei::Vector<int> classify(const cei::Matrix<float>& scores, int classes) {
  if (static_cast<int>(scores.extent(1)) != classes)
    throw std::invalid_argument("digits::classify: scores.extent(1) != classes");
  cei::Vector<int> labels(scores.extent(0));
  for (std::size_t b = 0; b < scores.extent(0); ++b) {
    int best = 0;
    for (int c = 1; c < classes; ++c)
      if (scores(b, c) > scores(b, best)) best = c;
    labels(b) = best;
  }
  return labels;
}

}  // namespace digits
