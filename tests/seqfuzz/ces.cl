// OpenCL versions of some seqfuzz CEs: the same operations as ces.cpp on integer-valued doubles,
// so the results are exact and equal to the native ones.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void vscale(__global const double* a, double k, __global double* out) {
  const size_t i = get_global_id(0);
  out[i] = fmod(a[i] * k + (double)i, 1009.0);
}

__kernel void vbump(__global double* v, double k) {
  const size_t i = get_global_id(0);
  v[i] = fmod(v[i] * 2.0 + k, 1009.0);
}

__kernel void vsum(__global const double* a, __global double* out) {
  // Work-item 0 adds the elements in order: the same sum as the native loop.
  if (get_global_id(0) != 0) return;
  double s = 0.0;
  for (size_t i = 0; i < get_global_size(0); ++i) s = s + a[i];
  out[0] = s;
}

__kernel void maxpy(__global double* m, __global const double* a, double k) {
  const size_t i = get_global_id(0), j = get_global_id(1), cols = get_global_size(1);
  m[i * cols + j] = fmod(m[i * cols + j] + a[i * cols + j] * k, 1009.0);
}

__kernel void mmake(int rows, int cols, double seed, __global double* out) {
  const size_t i = get_global_id(0), j = get_global_id(1);
  (void)rows;
  out[i * (size_t)cols + j] = fmod(seed + 7.0 * (double)i + 3.0 * (double)j, 1009.0);
}
