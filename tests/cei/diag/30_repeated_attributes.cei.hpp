#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface(kind = "x")]] AppCEI {
  [[cei::method(declaring_class = "app")]] [[cei::method(declaring_class = "app")]]
  [[cei::on_failure(policy = "retry", timeout_ms = 0)]] [[cei::on_failure(policy = "fail")]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "par0.x")]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "1")]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "par0.x", kernel = "k.cl")]]
  static void scale([[cei::in]] [[cei::out]] cei::Vector<int>& v, int factor);
};
