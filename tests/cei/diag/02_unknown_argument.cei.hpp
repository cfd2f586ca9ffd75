#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "par0.x", local_size = "4")]]
  static void scale([[cei::inout]] cei::Vector<int>& v, int factor);
};
