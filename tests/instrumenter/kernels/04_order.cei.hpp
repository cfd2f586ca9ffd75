// The right parameters in another order: the kernel would take the vector's buffer as `alpha`.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] OrderCEI {
  [[cei::opencl(kernel = "04_order.cl", global_work_size = "par0.x")]]
  static void scale([[cei::inout]] cei::Vector<float>& x, float alpha);
};

// CHECK: 04_order.cl:1:27: error: ceic: kernel 'scale' argument 0 'alpha' is 'float' but CE parameter 'x' (04_order.cei.hpp:7:56) is 'cei::Array<float, 1> (inout)': expected '__global float*': the runtime passes a buffer; the CE passes 'alpha' as argument 1 (are the parameters in another order?)
// CHECK: 04_order.cei.hpp:7:56: note: ceic: CE parameter 'x', passed to kernel 'scale' as argument 0 in a buffer
// CHECK: 04_order.cl:1:50: error: ceic: kernel 'scale' argument 1 'x' is '__global float *' but CE parameter 'alpha' (04_order.cei.hpp:7:65) is 'float': expected 'float'; the CE passes 'x' as argument 0 (are the parameters in another order?)
// CHECK: 04_order.cei.hpp:7:65: note: ceic: CE parameter 'alpha', passed to kernel 'scale' as argument 1 by value
// CHECK: 04_order.cei.hpp:7:15: note: ceic: CE 'scale' declared here; the kernel it calls is __kernel void scale(__global float* x, float alpha)
