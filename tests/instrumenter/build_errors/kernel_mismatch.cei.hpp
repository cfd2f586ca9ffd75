#pragma once
#include <cei/cei.hpp>

#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  [[cei::opencl(kernel = "app.cl", global_work_size = "par0.x")]]
  static void scale([[cei::inout]] cei::Vector<float>& x, float alpha);
};
