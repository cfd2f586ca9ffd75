// The CEI of poly.hpp (rule tests only).
#pragma once

#include <cei/cei.hpp>

#include "poly.hpp"

struct [[cei::interface]] ShapeCEI {
  [[cei::method(declaring_class = "Shape")]]
  void grow(long by);
};

struct [[cei::interface]] TileCEI {
  [[cei::method(declaring_class = "Tile")]]
  void grow(long by);
};

struct [[cei::interface]] PolyCEI {
  [[cei::method(declaring_class = "poly")]]
  static void stretch([[cei::inout]] Vec& v, long k);
  [[cei::method(declaring_class = "poly")]]
  static std::pair<long, long> minmax([[cei::in]] const Vec& v);
  [[cei::method(declaring_class = "poly")]]
  static void settle([[cei::inout]] std::optional<long>& o, long v);
};
