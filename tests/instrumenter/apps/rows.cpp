#include "rows.hpp"

#include <atomic>
#include <chrono>
#include <thread>

namespace {
void nap() { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }
std::atomic<long> running{0}, peak{0};
}  // namespace

namespace vec {
void bump(Row& v, float by) {
  nap();
  for (float& x : v) x += by;
}
void axpy(const Row& a, const Row& b, Row& c) {
  nap();
  for (std::size_t i = 0; i < c.size(); ++i) c[i] += a[i] * b[i];
}
void hold(Row& v, long ms) {
  long now = ++running;
  for (long p = peak.load(); now > p && !peak.compare_exchange_weak(p, now);) {
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  --running;
  v[0] += 1;
}
long peak_concurrency() { return peak.load(); }
void reset_peak() { peak = 0; }
float total(const Row& v) {
  nap();
  float s = 0;
  for (float x : v) s += x;
  return s;
}
}  // namespace vec
