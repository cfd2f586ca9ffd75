__kernel void shift(__global int* v, __global const int* by) {
  v[get_global_id(0)] += by[0];
}

__kernel void first(int v, int value) {}
