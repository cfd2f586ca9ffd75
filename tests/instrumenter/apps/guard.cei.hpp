// The CEI of requires_element.cpp: a requirement over an element ([[cei::requires]] reading a
// value, not a shape), so an input that lives only on the OpenCL device is brought to the host
// before the task is placed.
#pragma once

#include <cei/cei.hpp>

#include "guard.hpp"

// clang-format off
struct [[cei::interface]] GuardCEI {
  [[cei::method(declaring_class = "guard")]]
  [[cei::opencl(kernel = "guard.cl", global_work_size = "par0.x")]]
  [[cei::requires("par0[0] > 0")]]  // steps left
  static void spend([[cei::inout]] cei::Vector<int>& v);
};
// clang-format on
