#include "rows.hpp"

#include <chrono>
#include <thread>

namespace {
void nap() { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }
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
float total(const Row& v) {
  nap();
  float s = 0;
  for (float x : v) s += x;
  return s;
}
}  // namespace vec
