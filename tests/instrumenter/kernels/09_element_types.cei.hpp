// Same shape, other element types: the kernel would read the bytes as something else.
#pragma once
#include <cei/cei.hpp>

#include <vector>

// clang-format off
struct [[cei::interface]] ElementCEI {
  [[cei::opencl(kernel = "09_element_types.cl", global_work_size = "par0.x",
                result_size = "par0.x")]]
  static std::vector<double> convert(const cei::Matrix<unsigned int>& m, long scale);
};
// clang-format on

// CHECK: 09_element_types.cl:1:43: error: ceic: kernel 'convert' argument 0 'm' is 'const __global int *' but CE parameter 'm' (09_element_types.cei.hpp:11:71) is 'cei::Array<unsigned int, 2>': expected '__global const uint*'
// CHECK: 09_element_types.cei.hpp:11:71: note: ceic: CE parameter 'm', passed to kernel 'convert' as argument 0 in a buffer
// CHECK: 09_element_types.cl:1:50: error: ceic: kernel 'convert' argument 1 'scale' is 'int' but CE parameter 'scale' (09_element_types.cei.hpp:11:79) is 'long': expected 'long'
// CHECK: 09_element_types.cei.hpp:11:79: note: ceic: CE parameter 'scale', passed to kernel 'convert' as argument 1 by value
// CHECK: 09_element_types.cl:1:73: error: ceic: kernel 'convert' argument 2 'out' is '__global float *' but the result of CE 'convert' (09_element_types.cei.hpp:11:30) is 'std::vector<double>': expected '__global double*'
// CHECK: 09_element_types.cei.hpp:11:30: note: ceic: the result of CE 'convert', passed to kernel 'convert' as argument 2 in a buffer
// CHECK: 09_element_types.cei.hpp:11:30: note: ceic: CE 'convert' declared here; the kernel it calls is __kernel void convert(__global const uint* m, long scale, __global double* result)
