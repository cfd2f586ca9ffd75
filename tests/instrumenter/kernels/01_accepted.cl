typedef double real;

__kernel void axpy(__global real* y, __constant double* x, const double a, int n) {
  const size_t i = get_global_id(0);
  if (i < (size_t)n) y[i] += a * x[i];
}

__kernel void widen(__global const uchar* in, long shift, __global uint* out);

__kernel void widen(__global const uchar* in, long shift, __global uint* out) {
  out[get_global_id(0)] = (uint)in[get_global_id(0)] << shift;
}

__kernel void total(__global const float* v, __global int* count, __global float* result) {
  result[0] = v[0];
  count[0] = 1;
}

__kernel void tune(__global short* m, ushort k) {
  m[get_global_id(0)] = TUNED(k);
}
