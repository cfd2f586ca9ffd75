#if 0
__kernel void neg(__global int* v) { v[get_global_id(0)] = -v[get_global_id(0)]; }
#endif
