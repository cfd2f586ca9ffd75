#include "matmul.hpp"

#include <stdexcept>

namespace matmul {

cei::Matrix<int> multiply(const cei::Matrix<int>& A, const cei::Matrix<int>& B) {
  const std::size_t n = A.extent(0), k = A.extent(1), m = B.extent(1);
  if (B.extent(0) != k) throw std::invalid_argument("matmul::multiply: inner extents differ");
  cei::Matrix<int> C(n, m);
  // i-k-j order: the inner loop walks rows of B and C contiguously.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = 0; p < k; ++p) {
      const int a = A(i, p);
      for (std::size_t j = 0; j < m; ++j) C(i, j) += a * B(p, j);
    }
  return C;
}

cei::Matrix<int> add(const cei::Matrix<int>& A, const cei::Matrix<int>& B) {
  if (A.extents() != B.extents()) throw std::invalid_argument("matmul::add: extents differ");
  cei::Matrix<int> C(A.extent(0), A.extent(1));
  for (std::size_t i = 0; i < C.size(); ++i) C.data()[i] = A.data()[i] + B.data()[i];
  return C;
}

}  // namespace matmul
