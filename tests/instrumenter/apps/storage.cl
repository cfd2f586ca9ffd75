// OpenCL versions of StorageCEI: one work-item per element; their results reach the program
// by a read from the device straight into its objects.
__kernel void inc(__global int* v) { v[get_global_id(0)] += 1; }

__kernel void twice(__global float* m) {
  m[get_global_id(0) * get_global_size(1) + get_global_id(1)] *= 2.0f;
}
