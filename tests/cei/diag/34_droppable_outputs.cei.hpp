#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]] [[cei::significance("0", droppable = true)]]
  static void scale([[cei::out]] cei::Vector<int>& v, int factor);
  [[cei::method(declaring_class = "app")]] [[cei::significance("par0.x", droppable = true)]]
  static int sum(const cei::Vector<int>& v);
};
