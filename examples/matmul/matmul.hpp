// Native implementations of the matmul example's Core Elements (see matmul.cei.hpp).
//
//   cei::Matrix<int> C = matmul::multiply(A, B);   // A: n x k, B: k x m -> n x m
//   C = matmul::add(C, D);                         // element-wise sum
#pragma once

#include <cei/array.hpp>

namespace matmul {

cei::Matrix<int> multiply(const cei::Matrix<int>& A, const cei::Matrix<int>& B);
cei::Matrix<int> add(const cei::Matrix<int>& A, const cei::Matrix<int>& B);

}  // namespace matmul
