#include "cholesky.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace chol {

namespace {

std::size_t square_extent(const cei::Matrix<float>& m, const char* who) {
  if (m.extent(0) != m.extent(1))
    throw std::invalid_argument(std::string(who) + ": tiles must be square, got " +
                                std::to_string(m.extent(0)) + "x" + std::to_string(m.extent(1)));
  return m.extent(0);
}

void same_extents(const cei::Matrix<float>& a, const cei::Matrix<float>& b, const char* who) {
  if (a.extents() != b.extents()) throw std::invalid_argument(std::string(who) + ": tiles differ");
}

// The transpose of an n x n tile, so that the update loops below walk rows of both operands.
std::vector<float> transposed(const cei::Matrix<float>& m, std::size_t n) {
  std::vector<float> t(n * n);
  const float* src = m.data();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) t[j * n + i] = src[i * n + j];
  return t;
}

// c[j] -= a * b[j] for j < n: contiguous and unaliased, so the compiler vectorizes it; each
// element still gets one rounded product and one rounded difference, as in the kernels.
inline void axpy_minus(float* __restrict c, float a, const float* __restrict b, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) c[j] -= a * b[j];
}

}  // namespace

void potrf(cei::Matrix<float>& A) {
  const std::size_t n = square_extent(A, "chol::potrf");
  float* a = A.data();
  std::vector<float> col(n);  // column k, contiguous: the update below then walks rows only
  for (std::size_t k = 0; k < n; ++k) {
    const float pivot = a[k * n + k];
    if (!(pivot > 0.f))
      throw std::domain_error("chol::potrf: the tile is not positive definite (pivot " +
                              std::to_string(k) + " is " + std::to_string(pivot) + ")");
    const float d = std::sqrt(pivot);
    a[k * n + k] = d;
    for (std::size_t i = k + 1; i < n; ++i) col[i] = a[i * n + k] = a[i * n + k] / d;
    for (std::size_t i = k + 1; i < n; ++i)
      axpy_minus(a + i * n + k + 1, col[i], col.data() + k + 1, i - k);
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) a[i * n + j] = 0.f;
}

void trsm(const cei::Matrix<float>& L, cei::Matrix<float>& B) {
  const std::size_t n = square_extent(L, "chol::trsm");
  same_extents(L, B, "chol::trsm");
  const std::vector<float> lt = transposed(L, n);  // lt[j*n + m] = L(m, j)
  float* b = B.data();
  // Row by row, X L^T = B is a forward substitution: once x_j is known it leaves every later
  // element of the row, in column order, just as the kernel's running difference does. Four
  // rows per pass over L^T, as in gemm.
  std::size_t r = 0;
  for (; r + 4 <= n; r += 4) {
    float* __restrict r0 = b + r * n;
    float* __restrict r1 = r0 + n;
    float* __restrict r2 = r1 + n;
    float* __restrict r3 = r2 + n;
    for (std::size_t j = 0; j < n; ++j) {
      const float d = lt[j * n + j];
      const float x0 = r0[j] = r0[j] / d, x1 = r1[j] = r1[j] / d, x2 = r2[j] = r2[j] / d,
                  x3 = r3[j] = r3[j] / d;
      const float* __restrict l = lt.data() + j * n;
      for (std::size_t m = j + 1; m < n; ++m) {
        const float v = l[m];
        r0[m] -= x0 * v;
        r1[m] -= x1 * v;
        r2[m] -= x2 * v;
        r3[m] -= x3 * v;
      }
    }
  }
  for (; r < n; ++r) {
    float* row = b + r * n;
    for (std::size_t j = 0; j < n; ++j) {
      const float x = row[j] / lt[j * n + j];
      row[j] = x;
      axpy_minus(row + j + 1, x, lt.data() + j * n + j + 1, n - j - 1);
    }
  }
}

void syrk(const cei::Matrix<float>& A, cei::Matrix<float>& C) {
  const std::size_t n = square_extent(A, "chol::syrk");
  same_extents(A, C, "chol::syrk");
  const std::vector<float> at = transposed(A, n);
  const float* a = A.data();
  float* c = C.data();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = 0; p < n; ++p)
      axpy_minus(c + i * n, a[i * n + p], at.data() + p * n, i + 1);
}

void gemm(const cei::Matrix<float>& A, const cei::Matrix<float>& B, cei::Matrix<float>& C) {
  const std::size_t n = square_extent(A, "chol::gemm");
  same_extents(A, B, "chol::gemm");
  same_extents(A, C, "chol::gemm");
  const std::vector<float> bt = transposed(B, n);
  const float* a = A.data();
  float* c = C.data();
  std::size_t i = 0;
  // Four rows of C per pass over B^T: each row of B^T is loaded once for four updates.
  for (; i + 4 <= n; i += 4) {
    float* __restrict c0 = c + i * n;
    float* __restrict c1 = c0 + n;
    float* __restrict c2 = c1 + n;
    float* __restrict c3 = c2 + n;
    for (std::size_t p = 0; p < n; ++p) {
      const float a0 = a[i * n + p], a1 = a[(i + 1) * n + p], a2 = a[(i + 2) * n + p],
                  a3 = a[(i + 3) * n + p];
      const float* __restrict b = bt.data() + p * n;
      for (std::size_t j = 0; j < n; ++j) {
        const float v = b[j];
        c0[j] -= a0 * v;
        c1[j] -= a1 * v;
        c2[j] -= a2 * v;
        c3[j] -= a3 * v;
      }
    }
  }
  for (; i < n; ++i)
    for (std::size_t p = 0; p < n; ++p) axpy_minus(c + i * n, a[i * n + p], bt.data() + p * n, n);
}

}  // namespace chol
