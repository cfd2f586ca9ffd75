#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "par0.x", local_work_size = "4, 4",
                result_size = "1, 1")]]
  static int sum(const cei::Vector<int>& v);
};
