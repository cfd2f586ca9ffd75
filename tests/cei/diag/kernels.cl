__kernel void scale(__global int* v, const int factor) { v[get_global_id(0)] *= factor; }
__kernel void sum(__global const int* v, __global int* result) { result[0] = v[0]; }
