// The application of the OpenCL function tests: small BLAS operations with a native version in
// plain loops (namespace blas) and a device version that calls CLBlast (namespace blas_cl,
// blas_cl.hpp). Inputs hold small integers, so every sum is exact in float in any order and the
// device prints what the host prints, bit for bit.
#pragma once
#include <cei/array.hpp>

namespace blas {
// C -= A B^T, square n x n matrices.
void gemm(const cei::Matrix<float>& A, const cei::Matrix<float>& B, cei::Matrix<float>& C);
// a * x, a new vector.
cei::Vector<float> scaled(const cei::Vector<float>& x, float a);
// total = the sum of x's elements.
void sum(const cei::Vector<float>& x, float& total);
}  // namespace blas
