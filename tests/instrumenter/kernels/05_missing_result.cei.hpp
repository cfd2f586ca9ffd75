// A CE with a result: the kernel needs one more, trailing, parameter that receives it.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] ResultCEI {
  [[cei::opencl(kernel = "05_missing_result.cl", global_work_size = "par0.x, par0.y",
                result_size = "par0.x, par0.y")]]
  static cei::Matrix<int> twice(const cei::Matrix<int>& m);
};

// CHECK: 05_missing_result.cl:1:15: error: ceic: kernel 'twice' takes 1 argument but CE 'twice' (05_missing_result.cei.hpp:8:27) passes 2: its 1 parameter and one trailing '__global int*' that receives its result 'cei::Array<int, 2>'
// CHECK: 05_missing_result.cei.hpp:8:27: note: ceic: CE 'twice' declared here; the kernel it calls is __kernel void twice(__global const int* m, __global int* result)
