// OpenCL versions of RowsCEI: one work-item per element.
__kernel void bump(__global float* v, float by) { v[get_global_id(0)] += by; }

__kernel void axpy(__global const float* a, __global const float* b, __global float* c) {
  const size_t i = get_global_id(0);
  c[i] += a[i] * b[i];
}
