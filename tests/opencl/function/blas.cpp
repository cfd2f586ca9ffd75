#include "blas.hpp"

namespace blas {

void gemm(const cei::Matrix<float>& A, const cei::Matrix<float>& B, cei::Matrix<float>& C) {
  const std::size_t n = C.extent(0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t p = 0; p < n; ++p) C(i, j) -= A(i, p) * B(j, p);
}

cei::Vector<float> scaled(const cei::Vector<float>& x, float a) {
  cei::Vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y(i) = a * x(i);
  return y;
}

void sum(const cei::Vector<float>& x, float& total) {
  total = 0;
  for (float v : x) total += v;
}

}  // namespace blas
