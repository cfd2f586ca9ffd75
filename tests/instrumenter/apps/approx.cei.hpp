// The CEI of the approximation programs: the significance of a task is its `level` argument.
#pragma once

#include <cei/cei.hpp>

#include "approx.hpp"

struct [[cei::interface]] ApproxCEI {
  [[cei::method(declaring_class = "approx_exact")]]
  [[cei::approximate(declaring_class = "approx_fast")]]
  [[cei::significance("par1")]]
  static void smooth([[cei::inout]] LVec& v, long level);
  [[cei::method(declaring_class = "approx_exact")]]
  [[cei::significance("par1", droppable = true)]]
  static void halve([[cei::inout]] LVec& v, long level);
  [[cei::method(declaring_class = "approx_exact")]]
  static long total([[cei::in]] const LVec& v);
};
