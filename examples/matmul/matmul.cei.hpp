// The Core Element Interface of the matmul example: Fig. 3 of the COMPSs-Mobile paper in CEI
// syntax, plus the element-wise sum that accumulates block products.
#pragma once
#include <cei/cei.hpp>

#include "matmul.hpp"

// clang-format off
struct [[cei::interface]] MatmulCEI {
  // The kernel, like the paper's, reads B's row length (get_global_size(1)) as the inner extent
  // and as A's row length: B must be square. A may have any number of rows.
  [[cei::method(declaring_class = "matmul")]]
  [[cei::opencl(kernel = "matmul.cl", global_work_size = "par0.x, par1.y",
                result_size = "par0.x, par1.y")]]
  [[cei::requires("par0.y == par1.x")]]  // A's columns are B's rows (every implementation)
  [[cei::requires("par1.x == par1.y")]]  // B is square (the kernel)
  static cei::Matrix<int> multiply([[cei::in]] const cei::Matrix<int>& A,
                                   [[cei::in]] const cei::Matrix<int>& B);

  [[cei::method(declaring_class = "matmul")]]
  [[cei::opencl(kernel = "matmul.cl", global_work_size = "par0.x, par0.y",
                result_size = "par0.x, par0.y")]]
  // The kernel indexes B with A's shape.
  [[cei::requires("par0.x == par1.x && par0.y == par1.y")]]
  static cei::Matrix<int> add([[cei::in]] const cei::Matrix<int>& A,
                              [[cei::in]] const cei::Matrix<int>& B);
};
// clang-format on
