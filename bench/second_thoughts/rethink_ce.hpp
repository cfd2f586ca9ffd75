// The CE of the second-thoughts benchmark (rethink_bench.cpp), which the test of a slowed OpenCL
// device runs too (tests/decision/integration/second_thoughts_opencl_test.cpp): v + 1 for every
// element of a cei::Vector<int>, a CPU version that sleeps as long as it is told, and a kernel
// whose time grows with its `iters` argument, so that either platform can be slowed down.
//
//   cei::rethink::cpu_seconds = 0.004;   // the CPU's version sleeps 4 ms
//   rt::call<IVec>(cei::rethink::inc_ce, rt::in<IVec>(v), rt::in<int>(iters));
#pragma once

#include <cei/array.hpp>
#include <cei/rt/ce.hpp>
#include <cei/rt/type_ops.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

namespace cei::rethink {

using IVec = cei::Vector<int>;

// How long the CPU's version sleeps: cores taken by another program, or a CPU on time that
// leaves them to a device that computes on the host (PoCL). Set between batches.
inline std::atomic<double> cpu_seconds{0};

inline void inc_native(void* const* a) {
  std::this_thread::sleep_for(std::chrono::duration<double>(cpu_seconds.load()));
  IVec r = *static_cast<const IVec*>(a[0]);
  for (auto& x : r) x += 1;
  *static_cast<IVec*>(a[2]) = std::move(r);
}

// `iters` steps of a generator per element, whose state ends at 0 for none of the inputs: the
// device's time, set by iters; the result is the CPU's.
inline constexpr const char* kSource = R"CL(
__kernel void inc(__global const int* v, int iters, __global int* out) {
  size_t i = get_global_id(0);
  uint s = (uint)v[i];
  for (int k = 0; k < iters; ++k) s = s * 1664525u + 1013904223u;
  out[i] = v[i] + 1 + (s == 0u);
}
)CL";

inline const rt::ParamInfo params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()},
                                       {"iters", rt::Dir::In, &rt::type_ops<int>()}};
inline const rt::NativeVersion natives[] = {{"Native", &inc_native}};
inline const rt::OpenCLImpl inc_cl{"inc", kSource, "rethink_ce.cl", "par0.x", "", "", "par0.x"};
inline const rt::CeInfo inc_ce{
    "inc", "RethinkBench", false, params, 2, &rt::type_ops<IVec>(), natives, 1, &inc_cl};

}  // namespace cei::rethink
