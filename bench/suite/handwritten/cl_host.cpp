#define CL_TARGET_OPENCL_VERSION 120
#include "cl_host.hpp"

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

extern const char* const kKernelSource;  // the example's .cl file, embedded at build time

namespace cl_host {

namespace {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS)
    throw std::runtime_error(std::string("cl_host: ") + what + " failed: " + std::to_string(err));
}

double span_ms(cl_event e) {
  cl_ulong a = 0, b = 0;
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr);
  clReleaseEvent(e);
  return b > a ? static_cast<double>(b - a) * 1e-6 : 0;
}

struct Host {
  cl_device_id dev{};
  cl_context ctx{};
  cl_command_queue q{};
  cl_program prog{};
  double copy_ms = 0, kernel_ms = 0;
  long calls = 0;

  Host() {
    const char* match = std::getenv("CEI_OPENCL_DEVICE");
    cl_platform_id ps[16];
    cl_uint np = 0;
    check(clGetPlatformIDs(16, ps, &np), "clGetPlatformIDs");
    for (cl_uint i = 0; i < np && !dev; ++i) {
      cl_device_id ds[16];
      cl_uint nd = 0;
      if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS) continue;
      for (cl_uint j = 0; j < nd && !dev; ++j) {
        char name[256] = {};
        clGetDeviceInfo(ds[j], CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
        if (!match || std::strstr(name, match)) dev = ds[j];
      }
    }
    if (!dev) throw std::runtime_error("cl_host: no matching OpenCL device");
    cl_int err = CL_SUCCESS;
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    const char* src = kKernelSource;
    prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(prog, 1, &dev, "", nullptr, nullptr), "clBuildProgram");
  }
  ~Host() {
    std::fprintf(stderr, "opencl: copy_ms %.3f kernel_ms %.3f calls %ld\n", copy_ms, kernel_ms,
                 calls);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
  }
  cl_mem buffer(std::size_t bytes) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &err);
    check(err, "clCreateBuffer");
    return m;
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
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(h.prog, kernel, &err);
  check(err, "clCreateKernel");
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
