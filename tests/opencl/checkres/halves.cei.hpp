// The CEI of checkres.cpp: `half`'s global_work_size is wrong but valid (issue 36), so its kernel
// leaves the second half of the result unwritten.
#pragma once

#include <cei/cei.hpp>

#include "halves.hpp"

// clang-format off
struct [[cei::interface]] HalvesCEI {
  [[cei::method(declaring_class = "halves")]]
  [[cei::opencl(kernel = "halves.cl", global_work_size = "par0.x", result_size = "par0.x")]]
  static cei::Vector<float> full([[cei::in]] const cei::Vector<float>& a);
  [[cei::method(declaring_class = "halves")]]
  [[cei::opencl(kernel = "halves.cl", global_work_size = "par0.x / 2", result_size = "par0.x",
                name = "halved")]]  // `half` is a type in OpenCL C
  static cei::Vector<float> half([[cei::in]] const cei::Vector<float>& a);
};
// clang-format on
