#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::in]]
  [[cei::method(declaring_class = "app")]]
  static void scale([[cei::method(declaring_class = "app")]] cei::Vector<int>& v, int factor);
};
