// OpenCL versions of HalvesCEI: the same body; the work size decides how much is written.
__kernel void full(__global const float* a, __global float* r) {
  const size_t i = get_global_id(0);
  r[i] = 2 * a[i];
}

__kernel void halved(__global const float* a, __global float* r) {
  const size_t i = get_global_id(0);
  r[i] = 2 * a[i];
}
