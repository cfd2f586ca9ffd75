#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::approximate(declaring_class = "app_fast")]]
  static void scale(cei::Vector<int>& v, int factor);
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "par0.x", name = "scale",
                approximate = true)]]
  static void fill([[cei::inout]] cei::Vector<int>& v, int value);
};
