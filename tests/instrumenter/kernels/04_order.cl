__kernel void scale(float alpha, __global float* x) {
  x[get_global_id(0)] *= alpha;
}
