__kernel void smooth(__global float* image, const int passes) { image[get_global_id(0)] *= 0.5f; }
__kernel void smooth_fast(__global float* image, const int passes) { image[get_global_id(0)] = 0; }
