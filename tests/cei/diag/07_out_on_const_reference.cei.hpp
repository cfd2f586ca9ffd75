#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  static int sum([[cei::out]] const cei::Vector<int>& v);
};
