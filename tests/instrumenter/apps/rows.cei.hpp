// The CEI of the argument-root programs (docs/instrumenter.md, "Arguments and aliases").
#pragma once

#include <cei/cei.hpp>

#include "rows.hpp"

// clang-format off
struct [[cei::interface]] RowsCEI {
  [[cei::method(declaring_class = "vec")]]
  [[cei::opencl(kernel = "rows.cl", global_work_size = "par0.x")]]
  static void bump([[cei::inout]] Row& v, float by);

  [[cei::method(declaring_class = "vec")]]
  [[cei::opencl(kernel = "rows.cl", global_work_size = "par2.x")]]
  [[cei::requires("par0.x == par2.x && par1.x == par2.x")]]  // the kernel reads a and b at c's i
  static void axpy([[cei::in]] const Row& a, [[cei::in]] const Row& b, [[cei::inout]] Row& c);

  [[cei::method(declaring_class = "vec")]]
  static float total([[cei::in]] const Row& v);

  [[cei::method(declaring_class = "vec")]]
  static void hold([[cei::inout]] Row& v, long ms);
};
// clang-format on
