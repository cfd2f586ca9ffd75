#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct AppCEI {
  static void scale(cei::Vector<int>& v, int factor);
};
