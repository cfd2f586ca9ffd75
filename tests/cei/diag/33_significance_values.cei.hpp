#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]] [[cei::significance("150")]]
  static void scale([[cei::inout]] cei::Vector<int>& v, int factor);
  [[cei::method(declaring_class = "app")]] [[cei::significance("par1 * 10 + par2")]]
  static int sum(const cei::Vector<int>& v);
  [[cei::method(declaring_class = "app")]] [[cei::significance("par1.x, 50")]]
  [[cei::significance("0 - 1")]]
  static void label([[cei::inout]] std::string& s, const std::string& text);
};
