#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]] [[cei::significance("50", drop = true)]]
  [[cei::approximate("app_fast")]]
  static void scale([[cei::inout]] cei::Vector<int>& v, int factor);
  [[cei::method(declaring_class = "app")]] [[cei::significance(droppable = true)]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "1", result_size = "1", approximate = 1)]]
  static int sum(const cei::Vector<int>& v);
};
