#pragma once
#include <cei/cei.hpp>

#include "app.hpp"

// clang-format off
struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  static void scale([[cei::inout]] cei::Vector<float>& x, float alpha);
};
// clang-format on
