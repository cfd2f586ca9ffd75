// The soak's Core Elements, with the tables ceic would generate for them: three CEs with a native
// and an OpenCL version (so a task may run on the CPU or on an OpenCL device) and one CPU-only CE
// on a scalar. All arithmetic is on unsigned integers, which wrap alike in C++ and OpenCL C, so
// every result is comparable bit for bit with the sequential shadow computation.
#pragma once

#include <cei/array.hpp>
#include <cei/rt/ce.hpp>

#include <cstdint>

namespace soak {

using Vec = cei::Vector<std::uint32_t>;

// The native versions, also used directly by the shadow computation.
namespace ops {
inline void mix(Vec& a, const Vec& b, std::uint32_t k) {  // inout a, in b, in k
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) a(i) = a(i) * 3u + b((i + k) % n) + k;
}
inline Vec blend(const Vec& a, const Vec& b) {  // returns a value
  Vec r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    r(i) = (a(i) ^ (b(i) >> 3)) + static_cast<std::uint32_t>(i) * 0x9e3779b9u;
  return r;
}
inline void spread(Vec& a, std::uint64_t s) {  // inout a, in s
  for (std::size_t i = 0; i < a.size(); ++i) a(i) += static_cast<std::uint32_t>(s >> (i % 32));
}
inline void fold(std::uint64_t& s, const Vec& a) {  // inout s, in a; CPU only
  for (std::size_t i = 0; i < a.size(); ++i) s = s * 31 + a(i);
}
}  // namespace ops

// The kernels compute the same as ops:: for vectors of equal length (the soak's pool). Their names
// differ from the CEs' (`mix` is an OpenCL C built-in), hence OpenCLImpl's kernel_name.
inline constexpr const char* kKernels = R"CL(
__kernel void soak_mix(__global uint* a, __global const uint* b, uint k) {
  size_t i = get_global_id(0), n = get_global_size(0);
  a[i] = a[i] * 3u + b[(i + k) % n] + k;
}
__kernel void soak_blend(__global const uint* a, __global const uint* b, __global uint* r) {
  size_t i = get_global_id(0);
  r[i] = (a[i] ^ (b[i] >> 3)) + (uint)i * 0x9e3779b9u;
}
__kernel void soak_spread(__global uint* a, ulong s) {
  size_t i = get_global_id(0);
  a[i] += (uint)(s >> (i % 32));
}
)CL";

namespace detail {
using cei::rt::CeInfo;
using cei::rt::Dir;
using cei::rt::NativeVersion;
using cei::rt::OpenCLImpl;
using cei::rt::ParamInfo;
using cei::rt::type_ops;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

template <typename T>
T& at(void* const* args, int i) {
  return *static_cast<T*>(args[i]);
}

inline void invoke_mix(void* const* a) {
  ops::mix(at<Vec>(a, 0), at<Vec>(a, 1), at<u32>(a, 2));
}
inline void invoke_blend(void* const* a) {
  at<Vec>(a, 2) = ops::blend(at<Vec>(a, 0), at<Vec>(a, 1));
}
inline void invoke_spread(void* const* a) {
  ops::spread(at<Vec>(a, 0), at<u64>(a, 1));
}
inline void invoke_fold(void* const* a) {
  ops::fold(at<u64>(a, 0), at<Vec>(a, 1));
}

inline const ParamInfo mix_params[] = {{"a", Dir::InOut, &type_ops<Vec>()},
                                       {"b", Dir::In, &type_ops<Vec>()},
                                       {"k", Dir::In, &type_ops<u32>()}};
inline const NativeVersion mix_native[] = {{"ops", &invoke_mix}};
inline const OpenCLImpl mix_cl{"soak_mix", kKernels, "bench/soak/soak_ces.hpp", "par0.x", "",
                               "",         ""};

inline const ParamInfo blend_params[] = {{"a", Dir::In, &type_ops<Vec>()},
                                         {"b", Dir::In, &type_ops<Vec>()}};
inline const NativeVersion blend_native[] = {{"ops", &invoke_blend}};
inline const OpenCLImpl blend_cl{"soak_blend", kKernels, "bench/soak/soak_ces.hpp", "par0.x", "",
                                 "",           "par0.x"};

inline const ParamInfo spread_params[] = {{"a", Dir::InOut, &type_ops<Vec>()},
                                          {"s", Dir::In, &type_ops<u64>()}};
inline const NativeVersion spread_native[] = {{"ops", &invoke_spread}};
inline const OpenCLImpl spread_cl{
    "soak_spread", kKernels, "bench/soak/soak_ces.hpp", "par0.x", "", "", ""};

inline const ParamInfo fold_params[] = {{"s", Dir::InOut, &type_ops<u64>()},
                                        {"a", Dir::In, &type_ops<Vec>()}};
inline const NativeVersion fold_native[] = {{"ops", &invoke_fold}};
}  // namespace detail

inline const cei::rt::CeInfo mix{"mix",   "SoakCEI",          false, detail::mix_params, 3,
                                 nullptr, detail::mix_native, 1,     &detail::mix_cl};
inline const cei::rt::CeInfo blend{"blend",
                                   "SoakCEI",
                                   false,
                                   detail::blend_params,
                                   2,
                                   &cei::rt::type_ops<Vec>(),
                                   detail::blend_native,
                                   1,
                                   &detail::blend_cl};
inline const cei::rt::CeInfo spread{
    "spread", "SoakCEI",         false, detail::spread_params, 2, nullptr, detail::spread_native,
    1,        &detail::spread_cl};
inline const cei::rt::CeInfo fold{
    "fold", "SoakCEI", false, detail::fold_params, 2, nullptr, detail::fold_native, 1, nullptr};

}  // namespace soak
