// A kernel that takes `int alpha` for a `float alpha` CE would read the float's bits as an int.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] ScaleCEI {
  [[cei::opencl(kernel = "02_type.cl", global_work_size = "par0.x")]]
  static void scale([[cei::inout]] cei::Vector<float>& x, float alpha);
};

// CHECK: 02_type.cl:3:25: error: ceic: kernel 'scale' argument 1 'alpha' is 'int' but CE parameter 'alpha' (02_type.cei.hpp:7:65) is 'float': expected 'float'
// CHECK: 02_type.cei.hpp:7:65: note: ceic: CE parameter 'alpha', passed to kernel 'scale' as argument 1 by value
// CHECK: 02_type.cei.hpp:7:15: note: ceic: CE 'scale' declared here; the kernel it calls is __kernel void scale(__global float* x, float alpha)
