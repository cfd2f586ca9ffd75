__kernel void fill(__global int* v, int value, int stride) {
  v[get_global_id(0) * stride] = value;
}
