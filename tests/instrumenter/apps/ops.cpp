#include "ops.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace {
void pause(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }
std::atomic<long> running{0}, peak{0};
}  // namespace

namespace ops {
Vec add(const Vec& a, const Vec& b) {
  pause(3);
  Vec r(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < r.size(); ++i)
    r[i] = (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
  return r;
}
Vec iota(long n, long start) {
  pause(2);
  Vec r(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) r[static_cast<std::size_t>(i)] = start + i;
  return r;
}
long sum(const Vec& a) {
  pause(3);
  long s = 0;
  for (long x : a) s += x;
  return s;
}
void fill(Vec& v, long n, long value) {
  pause(3);
  v.assign(static_cast<std::size_t>(n), value);
}
void scale(Vec& v, long k) {
  pause(3);
  for (long& x : v) x *= k;
}
long checked_div(long a, long b) {
  pause(2);
  if (b == 0) throw std::domain_error("division by zero");
  return a / b;
}
long busy(long x, long ms) {
  long now = ++running;
  for (long p = peak.load(); now > p && !peak.compare_exchange_weak(p, now);) {
  }
  pause(static_cast<int>(ms));
  --running;
  return x;
}
double work(long seed, long iters) {
  double x = 0.5 + 0.4 / static_cast<double>(seed + 2);
  for (long k = 0; k < iters; ++k) x = 3.99 * x * (1.0 - x);
  return x;
}
void accumulate(double& acc, double x) {
  pause(1);
  acc = acc / 2 + x;
}
long peak_concurrency() { return peak.load(); }
void reset_peak() { peak = 0; }
}  // namespace ops

namespace sort_a {
Vec sort(const Vec& v) {
  pause(2);
  Vec r = v;
  std::sort(r.begin(), r.end());
  return r;
}
}  // namespace sort_a
namespace sort_b {
Vec sort(const Vec& v) {  // insertion sort: same result, another algorithm
  pause(2);
  Vec r = v;
  for (std::size_t i = 1; i < r.size(); ++i)
    for (std::size_t j = i; j > 0 && r[j - 1] > r[j]; --j) std::swap(r[j - 1], r[j]);
  return r;
}
}  // namespace sort_b

void Counter::bump(long by) {
  pause(2);
  value += by;
  ++bumps;
}
