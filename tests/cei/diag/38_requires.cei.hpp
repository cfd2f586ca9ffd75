#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]] [[cei::requires("par0.x > 0")]]
  [[cei::requires("par2.x > 0")]] [[cei::requires("par0.x = 3")]]
  static void scale(cei::Vector<int>& v, int factor);
  [[cei::method(declaring_class = "app")]] [[cei::requires("par0.x")]]
  [[cei::requires("(par0.x > 1) + 1 > 0")]] [[cei::requires("0 < par0.x < 9")]]
  static int sum(const cei::Vector<int>& v);
  [[cei::method(declaring_class = "app")]] [[cei::requires("par1.x > 0 && par0.x < 9")]]
  static void label([[cei::out]] std::string& s, const std::string& text);
};
