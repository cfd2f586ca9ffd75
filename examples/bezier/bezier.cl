// OpenCL version of BezierCEI::patch. Work-item (i, j) computes the surface height at point
// (row0 + i, col0 + j). Same operations in the same order as bezier.cpp; contraction
// into fma is off so that the two versions agree to a few ulps (tests allow 1e-5 absolute).
#pragma OPENCL FP_CONTRACT OFF

#define MAX_SIDE 32

static void bernstein(int side, float t, float* w) {
  const int n = side - 1;
  float binomial = 1.f;
  for (int i = 0; i <= n; ++i) {
    float v = binomial;
    for (int p = 0; p < i; ++p) v = v * t;
    for (int p = 0; p < n - i; ++p) v = v * (1.f - t);
    w[i] = v;
    binomial = binomial * (float)(n - i) / (float)(i + 1);
  }
}

__kernel void patch(__global const float* control, int side, int resolution, int row0, int col0,
                    int block, __global float* out) {
  const int r = row0 + (int)get_global_id(0), c = col0 + (int)get_global_id(1);
  if (side > MAX_SIDE) return;
  const float step = 1.f / (float)(resolution - 1);
  float bu[MAX_SIDE], bv[MAX_SIDE];
  bernstein(side, (float)r * step, bu);
  bernstein(side, (float)c * step, bv);
  float h = 0.f;
  for (int i = 0; i < side; ++i) {
    float row = 0.f;
    for (int j = 0; j < side; ++j) row = row + bv[j] * control[i * side + j];
    h = h + bu[i] * row;
  }
  out[(r - row0) * block + (c - col0)] = h;
}
