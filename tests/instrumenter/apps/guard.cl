// OpenCL version of GuardCEI::spend: work-item 0 spends a step, the others count it.
__kernel void spend(__global int* v) {
  const size_t i = get_global_id(0);
  v[i] += i == 0 ? -1 : 1;
}
