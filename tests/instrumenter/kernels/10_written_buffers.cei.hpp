// Outputs and results must be writable __global buffers.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] WrittenCEI {
  [[cei::opencl(kernel = "10_written_buffers.cl", global_work_size = "par0.x",
                result_size = "par0.x")]]
  static cei::Vector<int> split(const cei::Vector<int>& in, [[cei::out]] cei::Vector<int>& odd,
                                [[cei::inout]] cei::Vector<int>& acc);
};

// CHECK: 10_written_buffers.cl:1:40: error: ceic: kernel 'split' argument 0 'in' is 'const __local int *' but CE parameter 'in' (10_written_buffers.cei.hpp:8:57) is 'cei::Array<int, 1>': expected '__global const int*'
// CHECK: 10_written_buffers.cei.hpp:8:57: note: ceic: CE parameter 'in', passed to kernel 'split' as argument 0 in a buffer
// CHECK: 10_written_buffers.cl:1:64: error: ceic: kernel 'split' argument 1 'odd' is 'const __global int *' but CE parameter 'odd' (10_written_buffers.cei.hpp:8:92) is 'cei::Array<int, 1> (out)': expected '__global int*': the kernel must write it
// CHECK: 10_written_buffers.cei.hpp:8:92: note: ceic: CE parameter 'odd', passed to kernel 'split' as argument 1 in a buffer
// CHECK: 10_written_buffers.cl:1:85: error: ceic: kernel 'split' argument 2 'acc' is '__constant int *' but CE parameter 'acc' (10_written_buffers.cei.hpp:9:66) is 'cei::Array<int, 1> (inout)': expected '__global int*'
// CHECK: 10_written_buffers.cei.hpp:9:66: note: ceic: CE parameter 'acc', passed to kernel 'split' as argument 2 in a buffer
// CHECK: 10_written_buffers.cl:2:41: error: ceic: kernel 'split' argument 3 'even' is 'const __global int *' but the result of CE 'split' (10_written_buffers.cei.hpp:8:27) is 'cei::Array<int, 1>': expected '__global int*': the kernel must write it
// CHECK: 10_written_buffers.cei.hpp:8:27: note: ceic: the result of CE 'split', passed to kernel 'split' as argument 3 in a buffer
// CHECK: 10_written_buffers.cei.hpp:8:27: note: ceic: CE 'split' declared here; the kernel it calls is __kernel void split(__global const int* in, __global int* odd, __global int* acc, __global int* result)
