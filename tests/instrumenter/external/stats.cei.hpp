#pragma once

#include <cei/cei.hpp>

#include "stats.hpp"

struct [[cei::interface]] StatsCEI {
  [[cei::method(declaring_class = "stats")]]
  static double mean([[cei::in]] const std::vector<double>& v);
  [[cei::method(declaring_class = "stats")]]
  static double spread([[cei::in]] const std::vector<double>& v);
  [[cei::method(declaring_class = "stats")]]
  static std::vector<double> squares([[cei::in]] const std::vector<double>& v);
};
