#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "\"par0.x\"")]]
  static void scale(cei::Vector<int>& v, int factor);
};
