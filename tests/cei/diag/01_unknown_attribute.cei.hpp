#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::methd(declaring_class = "app")]]
  static void scale(cei::Vector<int>& v, int factor);
};
