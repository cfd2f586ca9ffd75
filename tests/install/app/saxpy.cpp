#include "saxpy.hpp"

namespace blas {
void saxpy(float a, const cei::Vector<float>& x, cei::Vector<float>& y) {
  for (std::size_t i = 0; i < y.size(); ++i) y(i) = a * x(i) + y(i);
}
cei::Vector<float> square(const cei::Vector<float>& x) {
  cei::Vector<float> r(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) r(i) = x(i) * x(i);
  return r;
}
double sum(const cei::Vector<float>& x) {
  double s = 0;
  for (float v : x) s += v;
  return s;
}
}  // namespace blas
