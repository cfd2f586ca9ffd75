#include "cholesky.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <stdexcept>
#include <string>

extern "C" void openblas_set_num_threads(int);  // not in every cblas.h Debian may pick

namespace chol {

namespace {

// Square n x n tiles, as int for the BLAS; once per process, OpenBLAS to one thread per call.
int square_extent(const cei::Matrix<float>& m, const char* who) {
  static const bool one_thread = (openblas_set_num_threads(1), true);
  (void)one_thread;
  if (m.extent(0) != m.extent(1))
    throw std::invalid_argument(std::string(who) + ": tiles must be square, got " +
                                std::to_string(m.extent(0)) + "x" + std::to_string(m.extent(1)));
  return static_cast<int>(m.extent(0));
}

void same_extents(const cei::Matrix<float>& a, const cei::Matrix<float>& b, const char* who) {
  if (a.extents() != b.extents()) throw std::invalid_argument(std::string(who) + ": tiles differ");
}

}  // namespace

void potrf(cei::Matrix<float>& A, cei::Matrix<float>& L_inv) {
  const int n = square_extent(A, "chol::potrf");
  // The row-major lower triangle is the column-major upper one: LAPACKE's row-major entry points
  // would transpose the tile in and out around each call (n = 1024, one core: spotrf 11 ms
  // against 6; with strtri, potrf is on the critical path).
  if (const lapack_int info = LAPACKE_spotrf(LAPACK_COL_MAJOR, 'U', n, A.data(), n); info != 0)
    throw std::domain_error("chol::potrf: the tile is not positive definite (LAPACKE_spotrf: " +
                            std::to_string(info) + ")");
  float* a = A.data();
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) a[i * n + j] = 0.f;
  L_inv = A;
  if (const lapack_int info = LAPACKE_strtri(LAPACK_COL_MAJOR, 'U', 'N', n, L_inv.data(), n);
      info != 0)
    throw std::domain_error("chol::potrf: L is singular (LAPACKE_strtri: " + std::to_string(info) +
                            ")");
}

void trsm(const cei::Matrix<float>& L_inv, cei::Matrix<float>& B) {
  const int n = square_extent(L_inv, "chol::trsm");
  same_extents(L_inv, B, "chol::trsm");
  cblas_strmm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, n, n, 1.0f,
              L_inv.data(), n, B.data(), n);
}

void syrk(const cei::Matrix<float>& A, cei::Matrix<float>& C) {
  const int n = square_extent(A, "chol::syrk");
  same_extents(A, C, "chol::syrk");
  cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, n, -1.0f, A.data(), n, 1.0f, C.data(), n);
}

void gemm(const cei::Matrix<float>& A, const cei::Matrix<float>& B, cei::Matrix<float>& C) {
  const int n = square_extent(A, "chol::gemm");
  same_extents(A, B, "chol::gemm");
  same_extents(A, C, "chol::gemm");
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0f, A.data(), n, B.data(), n,
              1.0f, C.data(), n);
}

}  // namespace chol
