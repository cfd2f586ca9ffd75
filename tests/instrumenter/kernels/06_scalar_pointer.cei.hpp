// A scalar comes by value, an array in a buffer: neither may stand for the other.
#pragma once
#include <cei/cei.hpp>

#include <vector>

struct [[cei::interface]] ShapeCEI {
  [[cei::opencl(kernel = "06_scalar_pointer.cl", global_work_size = "par0.x")]]
  static void shift([[cei::inout]] std::vector<int>& v, int by);

  [[cei::opencl(kernel = "06_scalar_pointer.cl", global_work_size = "1")]]
  static void first(const std::vector<int>& v, [[cei::out]] int& value);
};

// CHECK: 06_scalar_pointer.cl:1:58: error: ceic: kernel 'shift' argument 1 'by' is 'const __global int *' but CE parameter 'by' (06_scalar_pointer.cei.hpp:9:61) is 'int': expected 'int'
// CHECK: 06_scalar_pointer.cei.hpp:9:61: note: ceic: CE parameter 'by', passed to kernel 'shift' as argument 1 by value
// CHECK: 06_scalar_pointer.cei.hpp:9:15: note: ceic: CE 'shift' declared here; the kernel it calls is __kernel void shift(__global int* v, int by)
// CHECK: 06_scalar_pointer.cl:5:25: error: ceic: kernel 'first' argument 0 'v' is 'int' but CE parameter 'v' (06_scalar_pointer.cei.hpp:12:45) is 'std::vector<int>': expected '__global const int*': the runtime passes a buffer
// CHECK: 06_scalar_pointer.cei.hpp:12:45: note: ceic: CE parameter 'v', passed to kernel 'first' as argument 0 in a buffer
// CHECK: 06_scalar_pointer.cl:5:32: error: ceic: kernel 'first' argument 1 'value' is 'int' but CE parameter 'value' (06_scalar_pointer.cei.hpp:12:66) is 'int (out)': expected '__global int*': the runtime passes a buffer
// CHECK: 06_scalar_pointer.cei.hpp:12:66: note: ceic: CE parameter 'value', passed to kernel 'first' as argument 1 in a buffer
// CHECK: 06_scalar_pointer.cei.hpp:12:15: note: ceic: CE 'first' declared here; the kernel it calls is __kernel void first(__global const int* v, __global int* value)
