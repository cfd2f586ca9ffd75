#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  [[cei::on_failure(policy = "retry", retries = "3")]]
  [[cei::opencl(kernel = 1, global_work_size = "par0.x")]]
  static void scale(cei::Vector<int>& v, int factor);
};
