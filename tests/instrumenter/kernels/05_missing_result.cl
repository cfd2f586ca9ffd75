__kernel void twice(__global int* m) {
  const size_t k = get_global_id(0) * get_global_size(1) + get_global_id(1);
  m[k] *= 2;
}
