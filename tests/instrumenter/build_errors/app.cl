__kernel void scale(__global float* x, int alpha) { x[get_global_id(0)] *= alpha; }
