#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::opencl(kernel = "kernels.cl", function = "app::scale", global_work_size = "par0.x")]]
  static void scale(cei::Vector<int>& v, int factor);
  [[cei::opencl(function = "app::sum()", result_size = "1")]]
  static int sum(const cei::Vector<int>& v);
  [[cei::opencl(function = "app::fill", local_work_size = "64")]]
  static void fill([[cei::inout]] cei::Vector<int>& v, [[cei::inout]] int& value);
  [[cei::opencl(result_size = "1")]]
  static int count(const cei::Vector<int>& v);
  [[cei::opencl(kernel = "kernels.cl", name = "sum")]]
  static int total(const cei::Vector<int>& v);
};
