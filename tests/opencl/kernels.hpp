// Hand-written CE tables and kernels, as ceic would generate them for a small CEI header.
#pragma once

#include <cei/array.hpp>
#include <cei/rt/ce.hpp>

namespace cei::test {

inline constexpr const char* kSource = R"CL(
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void scale(__global const float* v, float k, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = v[i] * k;
}
__kernel void inc(__global const int* v, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = v[i] + 1;
}
__kernel void fails_at_run(__global const int* v, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = v[i] + 1;
}
__kernel void negate(__global int* v) {
  size_t i = get_global_id(0);
  v[i] = -v[i];
}
__kernel void matmul(__global const int* A, __global const int* B, __global int* C) {
  int i = get_global_id(0), j = get_global_id(1), n = get_global_size(1);
  int s = 0;
  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];
  C[i * n + j] = s;
}
)CL";

inline constexpr const char* kBrokenSource =
    "__kernel void broken(__global int* v) {\n"
    "  v[0] = undeclared_name;\n"
    "}\n";

using FVec = cei::Vector<float>;
using IVec = cei::Vector<int>;
using IMat = cei::Matrix<int>;

inline const rt::TypeOps& fvec() {
  return rt::type_ops<FVec>();
}
inline const rt::TypeOps& ivec() {
  return rt::type_ops<IVec>();
}

inline const rt::OpenCLImpl add_cl{"add", kSource, "tests/opencl/kernels.cl", "par0.x", "",
                                   "",    "par0.x"};
inline const rt::ParamInfo add_params[] = {{"a", rt::Dir::In, &fvec()},
                                           {"b", rt::Dir::In, &fvec()}};
inline const rt::CeInfo add_ce{"add",   "TestCEI", false, add_params, 2,
                               &fvec(), nullptr,   0,     &add_cl};

inline const rt::OpenCLImpl scale_cl{"scale", kSource, "tests/opencl/kernels.cl", "par0.x", "",
                                     "",      "par0.x"};
inline const rt::ParamInfo scale_params[] = {{"v", rt::Dir::In, &fvec()},
                                             {"k", rt::Dir::In, &rt::type_ops<float>()}};
inline const rt::CeInfo scale_ce{"scale", "TestCEI", false, scale_params, 2,
                                 &fvec(), nullptr,   0,     &scale_cl};

inline const rt::OpenCLImpl inc_cl{"inc", kSource, "tests/opencl/kernels.cl", "par0.x", "",
                                   "",    "par0.x"};
inline const rt::ParamInfo inc_params[] = {{"v", rt::Dir::In, &ivec()}};
inline const rt::CeInfo inc_ce{"inc",   "TestCEI", false, inc_params, 1,
                               &ivec(), nullptr,   0,     &inc_cl};

// inc's twin whose launches the runtime tests make fail at execution (CEI_OPENCL_FAIL_KERNEL).
inline const rt::OpenCLImpl fails_at_run_cl{
    "fails_at_run", kSource, "tests/opencl/kernels.cl", "par0.x", "", "", "par0.x"};

inline const rt::OpenCLImpl negate_cl{"negate", kSource, "tests/opencl/kernels.cl", "par0.x", "",
                                      "",       ""};
inline const rt::ParamInfo negate_params[] = {{"v", rt::Dir::InOut, &ivec()}};
inline const rt::CeInfo negate_ce{"negate", "TestCEI", false, negate_params, 1,
                                  nullptr,  nullptr,   0,     &negate_cl};

inline const rt::OpenCLImpl matmul_cl{
    "matmul", kSource, "tests/opencl/kernels.cl", "par0.x, par1.y", "", "", "par0.x, par1.y"};
inline const rt::ParamInfo matmul_params[] = {{"A", rt::Dir::In, &rt::type_ops<IMat>()},
                                              {"B", rt::Dir::In, &rt::type_ops<IMat>()}};
inline const rt::CeInfo matmul_ce{
    "matmul", "TestCEI", false, matmul_params, 2, &rt::type_ops<IMat>(), nullptr, 0, &matmul_cl};

// inc with a local size that does not divide the global size of a 100-element vector.
inline const rt::OpenCLImpl inc16_cl{"inc", kSource, "tests/opencl/kernels.cl", "par0.x", "16",
                                     "",    "par0.x"};
inline const rt::CeInfo inc16_ce{"inc16", "TestCEI", false, inc_params, 1,
                                 &ivec(), nullptr,   0,     &inc16_cl};

inline const rt::OpenCLImpl broken_cl{
    "broken", kBrokenSource, "tests/opencl/broken.cl", "par0.x", "", "", ""};
inline const rt::ParamInfo broken_params[] = {{"v", rt::Dir::InOut, &ivec()}};
inline const rt::CeInfo broken_ce{"broken", "TestCEI", false, broken_params, 1,
                                  nullptr,  nullptr,   0,     &broken_cl};

}  // namespace cei::test
