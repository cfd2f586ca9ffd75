// Native versions of the relay pipeline's stages (pipeline.cei.hpp): deterministic, so that the
// program's checksum equals pipeline-seq's wherever the stages ran.
#include "pipeline.hpp"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>

namespace pipeline {
namespace {

std::array<double, 4> seconds{};
std::mutex seconds_mu;

// Adds the time since it was made to the stage's total when it goes (a node may run stages at
// once).
class Timed {
 public:
  explicit Timed(int stage) : stage_(stage) {}
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;
  ~Timed() {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::lock_guard lock(seconds_mu);
    seconds[static_cast<std::size_t>(stage_)] += s;
  }

 private:
  int stage_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

const double* stage_seconds() {
  return seconds.data();
}

cei::Vector<float> make(int item, int n, int rounds) {
  const Timed timed(0);
  cei::Vector<float> v(static_cast<std::size_t>(n));
  float* d = v.data();
  for (int r = 0; r < rounds; ++r)
    for (int i = 0; i < n; ++i) {
      // A cheap hash of (item, i, r), in [0, 1).
      std::uint32_t h = (static_cast<std::uint32_t>(item) * 2654435761u) ^
                        (static_cast<std::uint32_t>(i) * 40503u) ^ static_cast<std::uint32_t>(r);
      h ^= h >> 15;
      h *= 2246822519u;
      h ^= h >> 13;
      d[i] = static_cast<float>(h & 0xffff) / 65536.0f;
    }
  return v;
}

cei::Vector<float> smooth(const cei::Vector<float>& x, int rounds) {
  const Timed timed(1);
  const std::size_t n = x.size();
  cei::Vector<float> a = x, b(n);
  for (int r = 0; r < rounds; ++r) {
    const float* s = a.data();
    float* d = b.data();
    for (std::size_t i = 0; i < n; ++i)
      d[i] = (s[i == 0 ? 0 : i - 1] + s[i] + s[i + 1 == n ? i : i + 1]) / 3.0f;
    std::swap(a, b);
  }
  return a;
}

cei::Vector<float> rescale(const cei::Vector<float>& x, int rounds) {
  const Timed timed(2);
  cei::Vector<float> v = x;
  float* d = v.data();
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < v.size(); ++i) d[i] = d[i] * 0.5f + 1.0f;
  return v;
}

cei::Vector<double> digest(const cei::Vector<float>& x, int rounds) {
  const Timed timed(3);
  double sum = 0;
  for (int r = 0; r < rounds; ++r) {
    sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
      sum += static_cast<double>(x.data()[i]) * (i % 7 + 1);
  }
  cei::Vector<double> d(1);
  d.data()[0] = sum;
  return d;
}

}  // namespace pipeline
