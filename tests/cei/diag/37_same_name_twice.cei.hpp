#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "Counter")]]
  void add(int n);
  [[cei::method(declaring_class = "app_more")]]
  static void add([[cei::inout]] Counter& c, int n);
};
