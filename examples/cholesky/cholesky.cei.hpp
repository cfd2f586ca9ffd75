// The Core Element Interface of the Cholesky example: the four tile kernels of a tiled Cholesky
// factorization, each updating its last tile in place (inout), like StarPU's cholesky_implicit.
// On the CPU they call OpenBLAS/LAPACKE (cholesky.cpp); on an OpenCL device trsm, syrk and gemm
// call CLBlast (cholesky_cl.cpp), and potrf calls it around a kernel of its own. potrf also
// produces the inverse of L_kk, which makes trsm a GEMM.
#pragma once
#include <cei/cei.hpp>

#include "cholesky.hpp"
#include "cholesky_cl.hpp"

// clang-format off
struct [[cei::interface]] CholeskyCEI {
  // Every tile is square, and a CE's tiles are of one size: the native versions refuse other
  // shapes, and the CLBlast calls take n = one tile's extent for every operand (they would read
  // and write outside the others' buffers). potrf's L_inv is inout, a tile the program made: the
  // device version writes it in place, where an out array would have no shape before the call.
  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(function = "chol_cl::potrf")]]
  [[cei::requires("par0.x == par0.y")]] [[cei::requires("par1.x == par0.x && par1.y == par0.y")]]
  static void potrf([[cei::inout]] cei::Matrix<float>& A,
                    [[cei::inout]] cei::Matrix<float>& L_inv);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(function = "chol_cl::trsm")]]
  [[cei::requires("par0.x == par0.y")]] [[cei::requires("par1.x == par0.x && par1.y == par0.y")]]
  static void trsm([[cei::in]] const cei::Matrix<float>& L_inv,
                   [[cei::inout]] cei::Matrix<float>& B);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(function = "chol_cl::syrk")]]
  [[cei::requires("par0.x == par0.y")]] [[cei::requires("par1.x == par0.x && par1.y == par0.y")]]
  static void syrk([[cei::in]] const cei::Matrix<float>& A, [[cei::inout]] cei::Matrix<float>& C);

  [[cei::method(declaring_class = "chol")]]
  [[cei::opencl(function = "chol_cl::gemm")]]
  [[cei::requires("par0.x == par0.y")]] [[cei::requires("par1.x == par0.x && par1.y == par0.y")]]
  [[cei::requires("par2.x == par0.x && par2.y == par0.y")]]
  static void gemm([[cei::in]] const cei::Matrix<float>& A, [[cei::in]] const cei::Matrix<float>& B,
                   [[cei::inout]] cei::Matrix<float>& C);
};
// clang-format on
