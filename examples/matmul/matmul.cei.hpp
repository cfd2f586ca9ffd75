// The Core Element Interface of the matmul example: Fig. 3 of the COMPSs-Mobile paper in CEI
// syntax, plus the element-wise sum that accumulates block products.
#pragma once
#include <cei/cei.hpp>

#include "matmul.hpp"

// clang-format off
struct [[cei::interface]] MatmulCEI {
  // The kernel, like the paper's, takes square operands: the inner extent is get_global_size(1).
  [[cei::method(declaring_class = "matmul")]]
  [[cei::opencl(kernel = "matmul.cl", global_work_size = "par0.x, par1.y",
                result_size = "par0.x, par1.y")]]
  static cei::Matrix<int> multiply([[cei::in]] const cei::Matrix<int>& A,
                                   [[cei::in]] const cei::Matrix<int>& B);

  [[cei::method(declaring_class = "matmul")]]
  [[cei::opencl(kernel = "matmul.cl", global_work_size = "par0.x, par0.y",
                result_size = "par0.x, par0.y")]]
  static cei::Matrix<int> add([[cei::in]] const cei::Matrix<int>& A,
                              [[cei::in]] const cei::Matrix<int>& B);
};
// clang-format on
