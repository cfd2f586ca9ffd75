// The Core Element Interface of the Cholesky example: the four tile kernels of a tiled Cholesky
// factorization, each updating its last tile in place (inout), like StarPU's cholesky_implicit.
// On the CPU they call OpenBLAS/LAPACKE (cholesky.cpp); on an OpenCL device trsm, syrk and gemm
// call CLBlast (cholesky_cl.cpp). potrf runs on the CPU and also produces the inverse of L_kk,
// which makes trsm a GEMM.
#pragma once
#include <cei/cei.hpp>

#include "cholesky.hpp"
#include "cholesky_cl.hpp"

// clang-format off
struct [[cei::interface]] CholeskyCEI {
  [[cei::method(declaring_class = "chol")]]
  static void potrf([[cei::inout]] cei::Matrix<float>& A, [[cei::out]] cei::Matrix<float>& L_inv);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(function = "chol_cl::trsm")]]
  static void trsm([[cei::in]] const cei::Matrix<float>& L_inv,
                   [[cei::inout]] cei::Matrix<float>& B);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(function = "chol_cl::syrk")]]
  static void syrk([[cei::in]] const cei::Matrix<float>& A, [[cei::inout]] cei::Matrix<float>& C);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(function = "chol_cl::gemm")]]
  static void gemm([[cei::in]] const cei::Matrix<float>& A, [[cei::in]] const cei::Matrix<float>& B,
                   [[cei::inout]] cei::Matrix<float>& C);
};
// clang-format on
