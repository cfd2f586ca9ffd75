// The CEI of the storage programs (docs/language.md, "What a task writes"): tasks write the
// program's own objects, whose storage stays where it was.
#pragma once

#include <cei/cei.hpp>

#include "storage.hpp"

// clang-format off
struct [[cei::interface]] StorageCEI {
  [[cei::method(declaring_class = "store")]]
  [[cei::opencl(kernel = "storage.cl", global_work_size = "par0.x")]]
  static void inc([[cei::inout]] std::vector<int>& v);

  [[cei::method(declaring_class = "store")]]
  static void scale([[cei::inout]] std::vector<int>& v, int k);

  [[cei::method(declaring_class = "store")]]
  [[cei::opencl(kernel = "storage.cl", global_work_size = "par0.x, par0.y")]]
  static void twice([[cei::inout]] cei::Matrix<float>& m);

  [[cei::method(declaring_class = "store")]]
  static void shout([[cei::inout]] std::string& s);
};

struct [[cei::interface]] TallyCEI {
  [[cei::method(declaring_class = "Tally")]]
  long add(long x);
};
// clang-format on
