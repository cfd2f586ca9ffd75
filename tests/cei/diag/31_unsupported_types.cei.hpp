#pragma once
#include <cei/cei.hpp>
#include <memory>
#include <vector>
#include "app.hpp"

struct Handle {
  std::unique_ptr<int> p;
};

struct [[cei::interface]] AppCEI {
  [[cei::in]] int not_a_ce;

  [[cei::opencl(kernel = "kernels.cl", global_work_size = "par0")]]
  static void scale(int* v, std::vector<bool>& flags, const Handle& h);

  [[cei::method(declaring_class = "Counter")]]
  [[cei::opencl(kernel = "kernels.cl", global_work_size = "1")]]
  void add(int n);
};
