// OpenCL versions of DigitsCEI. Activations are (batch, channels, side * side), row-major; the
// trailing parameter is the CE's result. Same operations in the same order as digits.cpp, with
// contraction into fma off: results agree with the native version to a few ulps (tests compare
// the predicted labels exactly).
#pragma OPENCL FP_CONTRACT OFF

static int side_of(int n) {
  int s = 0;
  while ((s + 1) * (s + 1) <= n) ++s;
  return s;
}

// Work-item (b, o, p): output channel o of image b at pixel p.
__kernel void conv(__global const float* in, __global const float* w, int cin, int cout,
                   __global float* out) {
  const int b = (int)get_global_id(0), o = (int)get_global_id(1), p = (int)get_global_id(2);
  const int n = (int)get_global_size(2), side = side_of(n);
  const int y = p / side, x = p % side;
  float acc = w[cout * cin * 9 + o];
  for (int i = 0; i < cin; ++i)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int yy = y + dy, xx = x + dx;
        if (yy < 0 || yy >= side || xx < 0 || xx >= side) continue;
        acc = acc + w[(o * cin + i) * 9 + (dy + 1) * 3 + (dx + 1)] *
                        in[(b * cin + i) * n + yy * side + xx];
      }
  out[(b * cout + o) * n + p] = acc;
}

__kernel void relu(__global const float* x, __global float* out) {
  const size_t k = get_global_id(0);
  out[k] = x[k] > 0.f ? x[k] : 0.f;
}

// Work-item (b, c, q): output pixel q of channel c of image b.
__kernel void pool(__global const float* x, __global float* out) {
  const int b = (int)get_global_id(0), c = (int)get_global_id(1), q = (int)get_global_id(2);
  const int channels = (int)get_global_size(1), nq = (int)get_global_size(2);
  const int out_side = side_of(nq), side = 2 * out_side, y = q / out_side, xx = q % out_side;
  __global const float* map = x + (b * channels + c) * (side * side);
  float m = map[(2 * y) * side + 2 * xx];
  for (int k = 1; k < 4; ++k) {
    const float v = map[(2 * y + k / 2) * side + 2 * xx + k % 2];
    if (v > m) m = v;
  }
  out[(b * channels + c) * nq + q] = m;
}

// Work-item (b, o): output o of image b.
__kernel void dense(__global const float* x, __global const float* w, int inputs, int outputs,
                    __global float* out) {
  const int b = (int)get_global_id(0), o = (int)get_global_id(1);
  float acc = w[outputs * inputs + o];
  for (int i = 0; i < inputs; ++i) acc = acc + w[o * inputs + i] * x[b * inputs + i];
  out[b * outputs + o] = acc;
}

__kernel void classify(__global const float* scores, int classes, __global int* labels) {
  const int b = (int)get_global_id(0);
  __global const float* s = scores + b * classes;
  int best = 0;
  for (int c = 1; c < classes; ++c)
    if (s[c] > s[best]) best = c;
  labels[b] = best;
}
