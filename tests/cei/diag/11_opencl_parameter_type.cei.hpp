#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  [[cei::opencl(kernel = "kernels.cl", name = "scale", global_work_size = "par1.x")]]
  static void label(std::string& s, const std::string& text);
};
