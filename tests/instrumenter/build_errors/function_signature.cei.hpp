#pragma once
#include <cei/cei.hpp>

#include "app.hpp"
#include "app_cl.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  [[cei::opencl(function = "app_cl::scale")]]
  static void scale([[cei::inout]] cei::Vector<float>& x, float alpha);
};
