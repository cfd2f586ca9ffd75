// A kernel with a parameter more than the CE passes would read an argument never set.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] CountCEI {
  [[cei::opencl(kernel = "03_count.cl", global_work_size = "par0.x")]]
  static void fill([[cei::out]] cei::Vector<int>& v, int value);
};

// CHECK: 03_count.cl:1:15: error: ceic: kernel 'fill' takes 3 arguments but CE 'fill' (03_count.cei.hpp:7:15) passes 2: its 2 parameters
// CHECK: 03_count.cei.hpp:7:15: note: ceic: CE 'fill' declared here; the kernel it calls is __kernel void fill(__global int* v, int value)
