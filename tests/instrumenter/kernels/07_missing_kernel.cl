__kernel void negative(__global int* v) { v[get_global_id(0)] = -v[get_global_id(0)]; }
