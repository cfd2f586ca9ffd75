// The OpenCL versions: the CE's parameters in order, then the result's buffer.
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  int i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

__kernel void square(__global const float* x, __global float* result) {
  int i = get_global_id(0);
  result[i] = x[i] * x[i];
}
