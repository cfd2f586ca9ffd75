// Native implementations of the Cholesky example's Core Elements (see cholesky.cei.hpp): the tile
// kernels of a right-looking tiled Cholesky factorization A = L L^T, single precision, on square
// row-major tiles, calling CBLAS and LAPACKE (OpenBLAS, one thread per call: the runtime's CPU
// workers are the parallelism). Only the lower triangle of a diagonal tile is read or written,
// except that potrf zeroes the upper one, so that a factored tile is exactly its L.
//
//   chol::potrf(Akk, Lkk_inv);    // Akk = L_kk, Lkk_inv = L_kk^-1    (spotrf, strtri)
//   chol::trsm(Lkk_inv, Aik);     // Aik = Aik L_kk^-T                (i > k; strmm)
//   chol::syrk(Aik, Aii);         // Aii -= Aik Aik^T                 (lower triangle; ssyrk)
//   chol::gemm(Aik, Ajk, Aij);    // Aij -= Aik Ajk^T                 (i > j > k; sgemm)
//
// trsm multiplies by the inverse of the diagonal tile instead of solving with it: on a GPU that
// is a GEMM at full speed, where a triangular solve runs at a tenth of it (CLBlast's STRSM), and
// the diagonal tiles of a positive definite matrix such as this one are well conditioned.
#pragma once

#include <cei/array.hpp>

namespace chol {

void potrf(cei::Matrix<float>& A, cei::Matrix<float>& L_inv);
void trsm(const cei::Matrix<float>& L_inv, cei::Matrix<float>& B);
void syrk(const cei::Matrix<float>& A, cei::Matrix<float>& C);
void gemm(const cei::Matrix<float>& A, const cei::Matrix<float>& B, cei::Matrix<float>& C);

}  // namespace chol
