// Native versions of the seqfuzz CEs. Each pauses a little, so that a host access the instrumenter
// failed to make wait reads a value that is not there yet.
#include "ces.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace {
void nap() {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
}
double wrap(double x) {
  return std::fmod(x, 1009.0);
}
}  // namespace

namespace fz {
DVec vscale(const DVec& a, double k) {
  nap();
  DVec r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = wrap(a[i] * k + static_cast<double>(i));
  return r;
}
void vbump(DVec& v, double k) {
  nap();
  for (double& x : v) x = wrap(x * 2.0 + k);
}
void vfill(DVec& v, int n, double start) {
  nap();
  v.assign(static_cast<std::size_t>(n), 0.0);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = wrap(start + static_cast<double>(i));
}
double vsum(const DVec& a) {
  nap();
  double s = 0;
  for (double x : a) s = s + x;
  return s;
}
int icount(const DVec& v, double thr) {
  nap();
  int n = 0;
  for (double x : v) n += x > thr ? 1 : 0;
  return n;
}
void sget(double& x, const DVec& v, int i) {
  nap();
  x = v.empty() ? -1.0 : v[static_cast<std::size_t>(i) % v.size()];
}
void iinc(int& x, int by) {
  nap();
  x = (x + by) % 1000;
}
double checked(const DVec& v, double d) {
  nap();
  if (d == 0) throw std::domain_error("checked: d is zero");
  return wrap(vsum(v) + d);
}
void maxpy(DMat& m, const DMat& a, double k) {
  nap();
  if (m.extents() != a.extents()) throw std::invalid_argument("maxpy: extents differ");
  for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = wrap(m.data()[i] + a.data()[i] * k);
}
DMat mmake(int rows, int cols, double seed) {
  nap();
  DMat m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = wrap(seed + 7.0 * i + 3.0 * j);
  return m;
}
double mtrace(const DMat& m) {
  nap();
  double s = 0;
  for (std::size_t i = 0; i < m.extent(0) && i < m.extent(1); ++i) s = s + m(i, i);
  return s;
}
void arow(DArr& a, const DVec& v) {
  nap();
  if (v.empty()) return;
  for (std::size_t i = 0; i < a.size(); ++i) a(i) = wrap(a(i) + v[i % v.size()]);
}
void vbump(DVec& v, const DVec& by) {
  for (std::size_t i = 0; i < v.size() && i < by.size(); ++i) v[i] = wrap(v[i] + by[i]);
}
void iinc(int& x, double by) {
  x = (x + static_cast<int>(by * 2.0)) % 1000;
}
}  // namespace fz

void Shape::grow(double k) {
  nap();
  size = wrap(size * 2.0 + k);
  for (double& x : v) x = wrap(x + k);
}
void BigShape::grow(double k) {
  size = wrap(size * 3.0 + k);
  for (double& x : v) x = wrap(x * 2.0);
}

void Acc::add(double x) {
  nap();
  vals[static_cast<std::size_t>(n) % vals.size()] = x;
  total = wrap(total + x);
  ++n;
}
void Acc::absorb(const DVec& v) {
  nap();
  total = wrap(total + fz::vsum(v));
}
