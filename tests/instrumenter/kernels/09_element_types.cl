__kernel void convert(__global const int* m, int scale, __global float* out) {
  out[get_global_id(0)] = m[get_global_id(0)] * scale;
}
