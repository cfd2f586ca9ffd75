#include "cl_host.hpp"

#include "cl_device.hpp"

#include <cstdio>

extern const char* const kKernelSource;  // the example's .cl file, embedded at build time

namespace cl_host {

namespace {

using cl_device::check;

double span_ms(cl_event e) {
  return cl_device::seconds(e) * 1e3;
}

struct Host : cl_device::Device {
  double copy_ms = 0, kernel_ms = 0;
  long calls = 0;

  Host() : Device(kKernelSource) {}
  ~Host() {
    std::fprintf(stderr, "opencl: copy_ms %.3f kernel_ms %.3f calls %ld\n", copy_ms, kernel_ms,
                 calls);
  }
};

Host& host() {
  static Host h;
  return h;
}

}  // namespace

void run_raw(const char* kernel, std::initializer_list<Arg> args,
             const std::vector<std::size_t>& global, const std::vector<std::size_t>& local,
             void* out, std::size_t out_bytes) {
  Host& h = host();
  cl_kernel k = h.kernel(kernel);
  std::vector<cl_mem> mems;
  cl_uint index = 0;
  for (const Arg& a : args) {
    if (a.buffer) {
      cl_mem m = h.buffer(a.bytes);
      cl_event e{};
      check(clEnqueueWriteBuffer(h.q, m, CL_TRUE, 0, a.bytes, a.data, 0, nullptr, &e),
            "clEnqueueWriteBuffer");
      h.copy_ms += span_ms(e);
      mems.push_back(m);
      check(clSetKernelArg(k, index++, sizeof m, &mems.back()), "clSetKernelArg");
    } else {
      check(clSetKernelArg(k, index++, a.bytes, a.data), "clSetKernelArg");
    }
  }
  cl_mem result = h.buffer(out_bytes);
  check(clSetKernelArg(k, index, sizeof result, &result), "clSetKernelArg");
  cl_event e{};
  check(clEnqueueNDRangeKernel(h.q, k, static_cast<cl_uint>(global.size()), nullptr, global.data(),
                               local.empty() ? nullptr : local.data(), 0, nullptr, &e),
        "clEnqueueNDRangeKernel");
  check(clWaitForEvents(1, &e), "clWaitForEvents");
  h.kernel_ms += span_ms(e);
  check(clEnqueueReadBuffer(h.q, result, CL_TRUE, 0, out_bytes, out, 0, nullptr, &e),
        "clEnqueueReadBuffer");
  h.copy_ms += span_ms(e);
  ++h.calls;
  for (cl_mem m : mems) clReleaseMemObject(m);
  clReleaseMemObject(result);
  clReleaseKernel(k);
}

}  // namespace cl_host
