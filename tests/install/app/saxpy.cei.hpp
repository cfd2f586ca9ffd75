// The Core Element Interface: which functions are tasks, their implementations, their data.
#pragma once
#include <cei/cei.hpp>

#include "saxpy.hpp"

// clang-format off
struct [[cei::interface]] SaxpyCEI {
  // Two implementations: blas::saxpy on a CPU core, kernel `saxpy` of saxpy.cl on an OpenCL
  // device, one work-item per element of y (par2).
  [[cei::method(declaring_class = "blas")]]
  [[cei::opencl(kernel = "saxpy.cl", global_work_size = "par2.x")]]
  static void saxpy(float a, [[cei::in]] const cei::Vector<float>& x,
                    [[cei::inout]] cei::Vector<float>& y);

  // A result: the kernel gets one more buffer, of result_size elements.
  [[cei::method(declaring_class = "blas")]]
  [[cei::opencl(kernel = "saxpy.cl", global_work_size = "par0.x", result_size = "par0.x")]]
  static cei::Vector<float> square([[cei::in]] const cei::Vector<float>& x);

  // Native only: a reduction with no kernel.
  [[cei::method(declaring_class = "blas")]]
  static double sum([[cei::in]] const cei::Vector<float>& x);
};
// clang-format on
