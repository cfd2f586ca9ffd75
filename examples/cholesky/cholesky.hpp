// Native implementations of the Cholesky example's Core Elements (see cholesky.cei.hpp): the four
// tile kernels of a right-looking tiled Cholesky factorization A = L L^T, single precision, on
// square row-major tiles. Only the lower triangle of a diagonal tile is read or written, except
// that potrf zeroes the upper one, so that a factored tile is exactly its L.
//
//   chol::potrf(Akk);             // Akk = L_kk                      (Akk's lower triangle)
//   chol::trsm(Akk, Aik);         // Aik = Aik L_kk^-T               (i > k)
//   chol::syrk(Aik, Aii);         // Aii -= Aik Aik^T                (lower triangle)
//   chol::gemm(Aik, Ajk, Aij);    // Aij -= Aik Ajk^T                (i > j > k)
//
// Every element receives its updates in the order the OpenCL kernels (cholesky.cl) apply them,
// and neither side contracts a*b-c into a fused multiply-add, so on a device with correctly
// rounded division and square root both give the same bits.
#pragma once

#include <cei/array.hpp>

namespace chol {

void potrf(cei::Matrix<float>& A);
void trsm(const cei::Matrix<float>& L, cei::Matrix<float>& B);
void syrk(const cei::Matrix<float>& A, cei::Matrix<float>& C);
void gemm(const cei::Matrix<float>& A, const cei::Matrix<float>& B, cei::Matrix<float>& C);

}  // namespace chol
