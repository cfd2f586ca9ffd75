// Plain, synchronous OpenCL host code for the suite's "GPU" column (the paper's §5.1): what a
// programmer writes without a runtime. Every call copies its inputs in, runs one kernel and copies
// the result out, all blocking, on one in-order queue; nothing stays on the device.
//
//   cei::Matrix<int> c(n, n);
//   cl_host::run("multiply", {cl_host::in(a), cl_host::in(b)}, {n, n}, {}, c);
//
// The device is the first whose name contains CEI_OPENCL_DEVICE (any device when unset), like the
// runtime's. At exit a line `opencl: copy_ms X kernel_ms Y calls N` on stderr reports the summed
// profiling durations of the copies and kernels.
#pragma once

#include <cei/array.hpp>

#include <cstddef>
#include <initializer_list>
#include <vector>

namespace cl_host {

// One kernel argument before the result: a buffer copied in, or an int passed by value.
struct Arg {
  const void* data;
  std::size_t bytes;
  bool buffer;
};

template <class T, std::size_t R>
Arg in(const cei::Array<T, R>& a) {
  return {a.data(), a.size() * sizeof(T), true};
}
inline Arg scalar(const int& v) {
  return {&v, sizeof v, false};
}

// Runs `kernel` with `args` then the result buffer as its last parameter; `local` empty = let the
// driver pick. Blocks until `out_bytes` are back in `out`.
void run_raw(const char* kernel, std::initializer_list<Arg> args,
             const std::vector<std::size_t>& global, const std::vector<std::size_t>& local,
             void* out, std::size_t out_bytes);

template <class T, std::size_t R>
void run(const char* kernel, std::initializer_list<Arg> args,
         const std::vector<std::size_t>& global, const std::vector<std::size_t>& local,
         cei::Array<T, R>& out) {
  run_raw(kernel, args, global, local, out.data(), out.size() * sizeof(T));
}

}  // namespace cl_host
