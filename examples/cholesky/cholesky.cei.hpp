// The Core Element Interface of the Cholesky example: the four tile kernels of a tiled Cholesky
// factorization, each updating its last tile in place (inout), like StarPU's cholesky_implicit.
#pragma once
#include <cei/cei.hpp>

#include "cholesky.hpp"

// clang-format off
struct [[cei::interface]] CholeskyCEI {
  // One work-group: the factorization of a tile is a chain of steps separated by barriers.
  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(kernel = "cholesky.cl", global_work_size = "par0.x", local_work_size = "par0.x")]]
  static void potrf([[cei::inout]] cei::Matrix<float>& A);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(kernel = "cholesky.cl", global_work_size = "par1.x")]]
  static void trsm([[cei::in]] const cei::Matrix<float>& L, [[cei::inout]] cei::Matrix<float>& B);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(kernel = "cholesky.cl", global_work_size = "par1.x, par1.y")]]
  static void syrk([[cei::in]] const cei::Matrix<float>& A, [[cei::inout]] cei::Matrix<float>& C);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(kernel = "cholesky.cl", global_work_size = "par2.x, par2.y")]]
  static void gemm([[cei::in]] const cei::Matrix<float>& A, [[cei::in]] const cei::Matrix<float>& B,
                   [[cei::inout]] cei::Matrix<float>& C);
};
// clang-format on
