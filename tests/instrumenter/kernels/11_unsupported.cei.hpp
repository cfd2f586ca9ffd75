// What the OpenCL platform cannot hand to a kernel: an inout scalar (scalar inputs go by value,
// so the update would be lost) and an element type OpenCL C lacks.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] UnsupportedCEI {
  [[cei::opencl(kernel = "11_unsupported.cl", global_work_size = "1")]]
  static void bump([[cei::inout]] int& counter, long double step);
};

// CHECK: 11_unsupported.cei.hpp:8:40: error: ceic: CE parameter 'counter' is an inout scalar, which kernel 'bump' (11_unsupported.cl:1:15) cannot update: OpenCL kernels get scalar inputs by value (make it 'out', or a cei::Vector of one element)
// CHECK: 11_unsupported.cei.hpp:8:61: error: ceic: CE parameter 'step' has element type 'long double', which OpenCL C has no type for: kernel 'bump' (11_unsupported.cl:1:15) cannot take it
