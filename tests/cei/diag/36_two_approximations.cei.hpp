#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]] [[cei::approximate(declaring_class = "app_fast")]]
  [[cei::approximate(declaring_class = "app_rough")]] [[cei::approximate(declaring_class = "app")]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "par0.x", approximate = true)]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "1", approximate = true)]]
  static void scale(cei::Vector<int>& v, int factor);
  [[cei::method(declaring_class = "Counter")]] [[cei::approximate(declaring_class = "app")]]
  void add(int n);
};
