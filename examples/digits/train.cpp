// Trains the digits CNN on the UCI digits' training split and writes the weights file that the
// example loads. Deterministic: a fixed seed, a fixed sample order, single-threaded float maths.
// Plain C++ (no CEs): forward passes reuse the native layers of digits.cpp; gradients are here.
// Usage: digits-train DATA.csv.gz OUT.weights [EPOCHS=30]
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "digits.hpp"
#include "example_main.hpp"

namespace {

using Act = cei::Array<float, 3>;
using digits::kChannels1, digits::kChannels2, digits::kClasses, digits::kFeatures;

// Uniform He initialisation from mt19937's standard-fixed sequence; biases start at 0.
cei::Vector<float> init(std::mt19937& rng, int fan_in, int outputs, int weights) {
  cei::Vector<float> w(weights + outputs);
  const float limit = std::sqrt(6.f / static_cast<float>(fan_in));
  for (int k = 0; k < weights; ++k)
    w(k) = (static_cast<float>(rng() >> 8) / 16777216.f * 2.f - 1.f) * limit;
  return w;
}

// Accumulates dL/dw for a conv layer and, when din is given, dL/dinput.
void conv_backward(const Act& in, const cei::Vector<float>& w, int cin, int cout, const Act& dout,
                   std::vector<float>& dw, Act* din) {
  const int batch = static_cast<int>(in.extent(0)), n = static_cast<int>(in.extent(2));
  const int side = digits::side_of(n);
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < cout; ++o)
      for (int p = 0; p < n; ++p) {
        const float g = dout(b, o, p);
        dw[cout * cin * 9 + o] += g;
        const int y = p / side, x = p % side;
        for (int i = 0; i < cin; ++i)
          for (int k = 0; k < 9; ++k) {
            const int yy = y + k / 3 - 1, xx = x + k % 3 - 1;
            if (yy < 0 || yy >= side || xx < 0 || xx >= side) continue;
            const int q = yy * side + xx, wi = (o * cin + i) * 9 + k;
            dw[wi] += g * in(b, i, q);
            if (din) (*din)(b, i, q) += g * w(wi);
          }
      }
}

// Routes each pooled gradient to the input that won the max (the first one on ties, as pool).
Act pool_backward(const Act& x, const Act& dout) {
  Act dx(x.extents());
  const int side = digits::side_of(x.extent(2)), half = side / 2;
  for (std::size_t b = 0; b < x.extent(0); ++b)
    for (std::size_t c = 0; c < x.extent(1); ++c)
      for (int q = 0; q < half * half; ++q) {
        const int y = q / half, xx = q % half;
        int best = (2 * y) * side + 2 * xx;
        for (int k = 1; k < 4; ++k) {
          const int p = (2 * y + k / 2) * side + 2 * xx + k % 2;
          if (x(b, c, p) > x(b, c, best)) best = p;
        }
        dx(b, c, best) += dout(b, c, q);
      }
  return dx;
}

Act relu_backward(const Act& pre, Act grad) {
  for (std::size_t k = 0; k < grad.size(); ++k)
    if (pre.data()[k] <= 0.f) grad.data()[k] = 0.f;
  return grad;
}

struct Momentum {
  std::vector<float> velocity;
  void step(cei::Vector<float>& w, const std::vector<float>& grad, float rate) {
    velocity.resize(w.size());
    for (std::size_t k = 0; k < w.size(); ++k) {
      velocity[k] = 0.9f * velocity[k] - rate * grad[k];
      w(k) += velocity[k];
    }
  }
};

}  // namespace

int run(int argc, char** argv) {
  const int epochs = examples::positive(argc, argv, 3, 30);
  if (argc < 3 || epochs == 0) {
    std::fprintf(stderr, "usage: %s DATA.csv.gz OUT.weights [EPOCHS]\n", argv[0]);
    return 2;
  }
  const digits::Dataset train = digits::split(digits::load_dataset(argv[1]), digits::Part::Train);

  std::mt19937 rng(2024);
  digits::Weights w{init(rng, 9, kChannels1, kChannels1 * 9),
                    init(rng, kChannels1 * 9, kChannels2, kChannels2 * kChannels1 * 9),
                    init(rng, kFeatures, kClasses, kClasses * kFeatures)};
  Momentum m1, m2, m3;
  std::vector<std::size_t> order(train.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;

  const std::size_t batch = 32;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
    const float rate = 0.02f * (epoch < epochs / 2 ? 1.f : 0.3f);
    double loss = 0;
    int correct = 0;
    for (std::size_t first = 0; first < order.size(); first += batch) {
      const std::size_t n = std::min(batch, order.size() - first);
      Act x(n, std::size_t{1}, std::size_t{digits::kPixels});
      std::vector<int> y(n);
      for (std::size_t s = 0; s < n; ++s) {
        std::copy_n(train.images.begin() + order[first + s] * digits::kPixels, digits::kPixels,
                    x.data() + s * digits::kPixels);
        y[s] = train.labels[order[first + s]];
      }
      const Act c1 = digits::conv(x, w.conv1, 1, kChannels1), r1 = digits::relu(c1),
                p1 = digits::pool(r1);
      const Act c2 = digits::conv(p1, w.conv2, kChannels1, kChannels2), r2 = digits::relu(c2),
                p2 = digits::pool(r2);
      const cei::Matrix<float> z = digits::dense(p2, w.dense, kFeatures, kClasses);

      // Softmax cross-entropy: dL/dz = (softmax(z) - onehot) / n.
      cei::Matrix<float> dz(n, std::size_t{kClasses});
      for (std::size_t s = 0; s < n; ++s) {
        float top = z(s, 0);
        for (int c = 1; c < kClasses; ++c) top = std::fmax(top, z(s, c));
        float total = 0;
        for (int c = 0; c < kClasses; ++c) total += std::exp(z(s, c) - top);
        int best = 0;
        for (int c = 0; c < kClasses; ++c) {
          const float p = std::exp(z(s, c) - top) / total;
          dz(s, c) = (p - (c == y[s] ? 1.f : 0.f)) / static_cast<float>(n);
          if (z(s, c) > z(s, best)) best = c;
        }
        loss -= std::log(std::exp(z(s, y[s]) - top) / total);
        correct += best == y[s];
      }

      std::vector<float> g3(w.dense.size()), g2(w.conv2.size()), g1(w.conv1.size());
      Act dp2(p2.extents());
      for (std::size_t s = 0; s < n; ++s)
        for (int o = 0; o < kClasses; ++o) {
          g3[kClasses * kFeatures + o] += dz(s, o);
          for (int i = 0; i < kFeatures; ++i) {
            g3[o * kFeatures + i] += dz(s, o) * p2.data()[s * kFeatures + i];
            dp2.data()[s * kFeatures + i] += dz(s, o) * w.dense(o * kFeatures + i);
          }
        }
      const Act dc2 = relu_backward(c2, pool_backward(r2, dp2));
      Act dp1(p1.extents());
      conv_backward(p1, w.conv2, kChannels1, kChannels2, dc2, g2, &dp1);
      const Act dc1 = relu_backward(c1, pool_backward(r1, dp1));
      conv_backward(x, w.conv1, 1, kChannels1, dc1, g1, nullptr);

      m1.step(w.conv1, g1, rate);
      m2.step(w.conv2, g2, rate);
      m3.step(w.dense, g3, rate);
    }
    std::printf("epoch %2d  loss %.4f  train accuracy %.2f%%\n", epoch + 1, loss / train.size(),
                100.0 * correct / train.size());
  }
  digits::save_weights(argv[2], w);
  std::printf("weights written to %s\n", argv[2]);
  return 0;
}
