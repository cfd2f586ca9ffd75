// The CEI of the sequential-equivalence programs.
#pragma once

#include <cei/cei.hpp>

#include "ops.hpp"

struct [[cei::interface]] OpsCEI {
  [[cei::method(declaring_class = "ops")]]
  static Vec add([[cei::in]] const Vec& a, [[cei::in]] const Vec& b);
  [[cei::method(declaring_class = "ops")]]
  static Vec iota(long n, long start);
  [[cei::method(declaring_class = "ops")]]
  static long sum([[cei::in]] const Vec& a);
  [[cei::method(declaring_class = "ops")]]
  static void fill([[cei::out]] Vec& v, long n, long value);
  [[cei::method(declaring_class = "ops")]]
  static void scale([[cei::inout]] Vec& v, long k);
  [[cei::method(declaring_class = "ops")]]
  static long checked_div(long a, long b);
  [[cei::method(declaring_class = "ops")]]
  static long busy(long x, long ms);
  [[cei::method(declaring_class = "ops")]]
  static double work(long seed, long iters);
  [[cei::method(declaring_class = "ops")]]
  static void accumulate([[cei::inout]] double& acc, double x);
  [[cei::method(declaring_class = "sort_a")]]
  [[cei::method(declaring_class = "sort_b")]]
  static Vec sort([[cei::in]] const Vec& v);
};

struct [[cei::interface]] CounterCEI {
  [[cei::method(declaring_class = "Counter")]]
  void bump(long by);
};
