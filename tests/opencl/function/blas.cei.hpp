#pragma once
#include <cei/cei.hpp>

#include "blas.hpp"
#include "blas_cl.hpp"

// clang-format off
struct [[cei::interface]] BlasCEI {
  [[cei::method(declaring_class = "blas")]]
  [[cei::opencl(function = "blas_cl::gemm")]]
  static void gemm([[cei::in]] const cei::Matrix<float>& A, [[cei::in]] const cei::Matrix<float>& B,
                   [[cei::inout]] cei::Matrix<float>& C);

  [[cei::method(declaring_class = "blas")]]
  [[cei::opencl(function = "blas_cl::scaled", result_size = "par0.x")]]
  static cei::Vector<float> scaled([[cei::in]] const cei::Vector<float>& x, float a);

  [[cei::method(declaring_class = "blas")]]
  [[cei::opencl(function = "blas_cl::sum")]]
  static void sum([[cei::in]] const cei::Vector<float>& x, [[cei::out]] float& total);
};
// clang-format on
