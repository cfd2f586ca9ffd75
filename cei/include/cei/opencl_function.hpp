// What an OpenCL implementation that is a host function receives: a CE declared with
// `[[cei::opencl(function = "ns::f", result_size = "...")]]` runs, on an OpenCL device, as a call of
// ns::f on the host, which enqueues the work (library calls such as CLBlast's, several kernels) and
// returns the event that completes it. For the CE
//
//   static void gemm(const cei::Matrix<float>& A, float alpha, cei::Matrix<float>& C);
//
// the function is exactly
//
//   cl_event ns::f(cei::OpenCLCall call, cei::DeviceMatrix<float> A, float alpha,
//                  cei::DeviceMatrix<float> C);
//
// one argument per CE parameter, in order: an array (cei::Array<T, R>, std::vector<T>) as a
// cei::DeviceArray<T, R> (the buffer on this device and the extents), an arithmetic scalar `in` by
// value, a scalar `out` as a cei::DeviceVector<T> of one element; then, when the CE returns a
// value, one more cei::DeviceArray for the result, allocated from result_size (a scalar result: a
// cei::DeviceVector<T> of one element). The generated registry binds the function to that type,
// so a function that is missing or has another signature is a compile error at the attribute.
// docs/language.md has the rules and a worked example (a CLBlast SGEMM).
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <span>

namespace cei {

// The device side of one call.
struct OpenCLCall {
  // An in-order queue of the device: commands enqueued on it run after the task's inputs are
  // ready (the runtime makes it so), in the order enqueued.
  cl_command_queue queue;
  cl_context context;
  cl_device_id device;
  // The events the inputs wait for. Already waited for by `queue` (a barrier ahead of the call):
  // only commands the function enqueues on a queue of its own must wait for them.
  std::span<const cl_event> wait;
};

// An array argument on the device: its buffer (row-major, the elements only) and its extents.
// The buffer belongs to the runtime: the function enqueues reads and writes of it, and neither
// releases nor keeps it. An `in` array must not be written.
template <typename T, std::size_t Rank>
struct DeviceArray {
  cl_mem mem = nullptr;
  std::array<std::size_t, Rank> extents{};

  std::size_t extent(std::size_t d) const { return extents[d]; }
  std::size_t size() const {
    std::size_t n = 1;
    for (std::size_t e : extents) n *= e;
    return n;
  }
  std::size_t bytes() const { return size() * sizeof(T); }
};
template <typename T>
using DeviceVector = DeviceArray<T, 1>;
template <typename T>
using DeviceMatrix = DeviceArray<T, 2>;

namespace detail {
// What the OpenCL platform hands the generated code for an array argument.
struct DeviceBuffer {
  cl_mem mem;
  std::array<std::size_t, 3> extents;  // 1 past the argument's rank
};

template <typename T, std::size_t Rank>
DeviceArray<T, Rank> device_array(void* arg) {
  const auto& b = *static_cast<const DeviceBuffer*>(arg);
  DeviceArray<T, Rank> a;
  a.mem = b.mem;
  for (std::size_t d = 0; d < Rank; ++d) a.extents[d] = b.extents[d];
  return a;
}
}  // namespace detail

}  // namespace cei
