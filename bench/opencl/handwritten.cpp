#define CL_TARGET_OPENCL_VERSION 120
#include "handwritten.hpp"

#include <CL/cl.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include <sys/resource.h>

namespace cei::bench {

namespace {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: " + std::to_string(err));
}

double span(cl_event e) {
  cl_ulong a = 0, b = 0;
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr);
  clReleaseEvent(e);
  return b > a ? static_cast<double>(b - a) * 1e-9 : 0;
}

struct Device {
  cl_device_id dev{};
  cl_context ctx{};
  cl_command_queue q{};
  cl_program prog{};
  Device() {
    // The first device whose name contains CEI_OPENCL_DEVICE, like the CEI run it is compared with.
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
    if (!dev) throw std::runtime_error("no matching OpenCL device");
    cl_int err = CL_SUCCESS;
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    const char* src = kSource;
    prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(prog, 1, &dev, "", nullptr, nullptr), "clBuildProgram");
  }
  ~Device() {
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
  }
  cl_kernel kernel(const char* name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(prog, name, &err);
    check(err, "clCreateKernel");
    return k;
  }
  cl_mem buffer(std::size_t bytes) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    check(err, "clCreateBuffer");
    return m;
  }
  void run(cl_kernel k, cl_mem in0, cl_mem in1, cl_mem out, std::size_t rows, std::size_t cols) {
    int i = 0;
    clSetKernelArg(k, i++, sizeof in0, &in0);
    if (in1) clSetKernelArg(k, i++, sizeof in1, &in1);
    clSetKernelArg(k, i++, sizeof out, &out);
    std::size_t g[2] = {rows, cols};
    cl_event ev;
    check(clEnqueueNDRangeKernel(q, k, 2, nullptr, g, nullptr, 0, nullptr, &ev), "kernel");
    kernels.push_back(ev);
  }
  // Summed durations of the kernels run so far (complete: every program ends with a blocking read).
  double kernel_seconds() {
    double s = 0;
    for (cl_event e : kernels) s += span(e);
    kernels.clear();
    return s;
  }
  std::vector<cl_event> kernels;
  // Blocking copies; each returns its profiled duration.
  double write(cl_mem m, std::size_t bytes, const float* src) {
    cl_event ev;
    check(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, src, 0, nullptr, &ev), "write");
    return span(ev);
  }
  double read(cl_mem m, std::size_t bytes, float* dst) {
    cl_event ev;
    check(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, dst, 0, nullptr, &ev), "read");
    return span(ev);
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

HandResult handwritten_pipeline(const std::vector<Image>& frames,
                                const std::vector<std::string>& stages, Keep keep) {
  Device d;
  std::map<std::string, cl_kernel> ks;
  for (auto& s : stages)
    if (!ks.count(s)) ks[s] = d.kernel(s.c_str());
  const std::size_t last = stages.size() - 1;
  HandResult res;
  const double cpu0 = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  for (const Image& f : frames) {
    std::size_t rows = f.extent(0), cols = f.extent(1), bytes = f.size() * sizeof(float);
    cl_mem a = d.buffer(bytes), b = d.buffer(bytes);
    Image out(rows, cols);
    const float* src = f.data();
    for (std::size_t s = 0; s <= last; ++s) {
      if (s == 0 || keep == Keep::Nothing) res.transfer_s += d.write(a, bytes, src);
      d.run(ks[stages[s]], a, nullptr, b, rows, cols);
      std::swap(a, b);
      if (s == last || keep == Keep::Nothing) res.transfer_s += d.read(a, bytes, out.data());
      src = out.data();
    }
    res.outputs.push_back(std::move(out));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
  res.total_s = seconds_since(t0);
  res.cpu_s = cpu_seconds() - cpu0;
  res.kernel_s = d.kernel_seconds();
  for (auto& [name, k] : ks) clReleaseKernel(k);
  return res;
}

HandResult handwritten_matmul(const Image& A, const Image& B, int steps, Keep keep) {
  Device d;
  cl_kernel k = d.kernel("matmul");
  HandResult res;
  const double cpu0 = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  std::size_t n = A.extent(0), bytes = A.size() * sizeof(float);
  cl_mem a = d.buffer(bytes), b = d.buffer(bytes), c = d.buffer(bytes);
  Image out(n, n);
  const float* src = A.data();
  for (int s = 0; s < steps; ++s) {
    if (s == 0 || keep == Keep::Nothing) {
      res.transfer_s += d.write(a, bytes, src);
      res.transfer_s += d.write(b, bytes, B.data());
    }
    d.run(k, a, b, c, n, n);
    std::swap(a, c);
    if (s == steps - 1 || keep == Keep::Nothing) res.transfer_s += d.read(a, bytes, out.data());
    src = out.data();
  }
  res.outputs.push_back(std::move(out));
  res.total_s = seconds_since(t0);
  res.cpu_s = cpu_seconds() - cpu0;
  res.kernel_s = d.kernel_seconds();
  for (cl_mem m : {a, b, c}) clReleaseMemObject(m);
  clReleaseKernel(k);
  return res;
}

}  // namespace cei::bench
