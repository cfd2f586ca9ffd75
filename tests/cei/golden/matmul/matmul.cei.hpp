// The example of docs/language.md: one native version and an OpenCL kernel named like the CE.
#pragma once
#include <cei/cei.hpp>
#include "matmul.hpp"

struct [[cei::interface]] MatmulCEI {
  [[cei::method(declaring_class = "matmul")]]
  [[cei::opencl(kernel = "matmul.cl",
                global_work_size = "par0.x, par1.y",
                result_size = "par0.x, par1.y")]]
  static cei::Matrix<int> multiply([[cei::in]] const cei::Matrix<int>& A,
                                   [[cei::in]] const cei::Matrix<int>& B);
};
