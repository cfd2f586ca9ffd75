// A parameter list clang cannot read as OpenCL C cannot be checked: refused, with clang's reason.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] UnreadableCEI {
  [[cei::opencl(kernel = "12_unreadable.cl", global_work_size = "par0.x")]]
  static void clear([[cei::out]] cei::Vector<float>& v, int n);
};

// CHECK: 12_unreadable.cl:1:30: error: unknown type name 'REAL'
// CHECK: 12_unreadable.cl:1:46: error: '__private size_t' (aka '__private unsigned long') cannot be used as the type of a kernel parameter
// CHECK: 12_unreadable.cl:1:15: error: ceic: kernel 'clear' cannot be checked against CE 'clear' (12_unreadable.cei.hpp:7:15): clang cannot read its parameter list as OpenCL C 1.2
