// The benchmark's CEs: a Canny-like 4-stage frame pipeline and matrix multiplication, as CE tables
// (what ceic generates) and one OpenCL source that the hand-written host code builds too.
#pragma once

#include <cei/array.hpp>
#include <cei/rt/ce.hpp>

namespace cei::bench {

inline constexpr const char* kSource = R"CL(
#define AT(img, r, c) img[clamp(r, 0, rows - 1) * cols + clamp(c, 0, cols - 1)]
__kernel void gaussian(__global const float* in, __global float* out) {
  int r = get_global_id(0), c = get_global_id(1), rows = get_global_size(0), cols = get_global_size(1);
  const float w[5] = {1.f, 4.f, 6.f, 4.f, 1.f};
  float s = 0.f;
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j) s += w[i + 2] * w[j + 2] * AT(in, r + i, c + j);
  out[r * cols + c] = s / 256.f;
}
__kernel void sobel(__global const float* in, __global float* out) {
  int r = get_global_id(0), c = get_global_id(1), rows = get_global_size(0), cols = get_global_size(1);
  float gx = AT(in, r - 1, c + 1) + 2.f * AT(in, r, c + 1) + AT(in, r + 1, c + 1)
           - AT(in, r - 1, c - 1) - 2.f * AT(in, r, c - 1) - AT(in, r + 1, c - 1);
  float gy = AT(in, r + 1, c - 1) + 2.f * AT(in, r + 1, c) + AT(in, r + 1, c + 1)
           - AT(in, r - 1, c - 1) - 2.f * AT(in, r - 1, c) - AT(in, r - 1, c + 1);
  out[r * cols + c] = sqrt(gx * gx + gy * gy);
}
__kernel void nms(__global const float* in, __global float* out) {
  int r = get_global_id(0), c = get_global_id(1), rows = get_global_size(0), cols = get_global_size(1);
  float v = AT(in, r, c);
  bool peak = (v >= AT(in, r, c - 1) && v >= AT(in, r, c + 1)) ||
              (v >= AT(in, r - 1, c) && v >= AT(in, r + 1, c));
  out[r * cols + c] = peak ? v : 0.f;
}
__kernel void hysteresis(__global const float* in, __global float* out) {
  int r = get_global_id(0), c = get_global_id(1), rows = get_global_size(0), cols = get_global_size(1);
  const float lo = 20.f, hi = 60.f;
  float v = AT(in, r, c);
  bool strong_near = false;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j) strong_near |= AT(in, r + i, c + j) > hi;
  out[r * cols + c] = (v > hi || (v > lo && strong_near)) ? 255.f : 0.f;
}
__kernel void matmul(__global const float* A, __global const float* B, __global float* C) {
  int i = get_global_id(0), j = get_global_id(1), n = get_global_size(1);
  float s = 0.f;
  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];
  C[i * n + j] = s;
}
)CL";

using Image = cei::Matrix<float>;

inline const rt::TypeOps& image() {
  return rt::type_ops<Image>();
}
inline const rt::ParamInfo one_image[] = {{"img", rt::Dir::In, &image()}};
inline const rt::ParamInfo two_images[] = {{"A", rt::Dir::In, &image()},
                                           {"B", rt::Dir::In, &image()}};

#define CEI_BENCH_STAGE(ce, params, n, gws)                                         \
  inline const rt::OpenCLImpl ce##_cl{#ce, kSource, "bench/opencl/kernels.cl", gws, \
                                      "",  "",      "par0.x, par0.y"};              \
  inline const rt::CeInfo ce##_ce{#ce,      "BenchCEI", false, params,  n,          \
                                  &image(), nullptr,    0,     &ce##_cl};
CEI_BENCH_STAGE(gaussian, one_image, 1, "par0.x, par0.y")
CEI_BENCH_STAGE(sobel, one_image, 1, "par0.x, par0.y")
CEI_BENCH_STAGE(nms, one_image, 1, "par0.x, par0.y")
CEI_BENCH_STAGE(hysteresis, one_image, 1, "par0.x, par0.y")
CEI_BENCH_STAGE(matmul, two_images, 2, "par0.x, par1.y")
#undef CEI_BENCH_STAGE

}  // namespace cei::bench
