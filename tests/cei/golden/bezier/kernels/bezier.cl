/* Bezier surfaces: every CEI argument form of cei::opencl. */
__kernel __attribute__((reqd_work_group_size(4, 4, 1)))
void bezier_eval(__global const float* control, __global const long* counts, const int resolution,
                 __global float* out) {
  (void)control; (void)counts; (void)resolution; (void)out;
}

kernel void lengths(__global const float* control, const int samples, __global double* result) {
  (void)control; (void)samples; (void)result;
}
