#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  static void scale(cei::Vector<int>& v, int factor);
};
