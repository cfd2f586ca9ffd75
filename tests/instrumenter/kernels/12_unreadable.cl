__kernel void clear(__global REAL* v, size_t n) { v[get_global_id(0)] = 0; }
