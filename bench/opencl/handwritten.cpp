#include "handwritten.hpp"

#include "cl_device.hpp"

#include <chrono>
#include <map>
#include <string>

#include <time.h>

#include <sys/resource.h>

namespace cei::bench {

namespace {

using cl_device::check;
using cl_device::seconds;

struct Device : cl_device::Device {
  Device() : cl_device::Device(kSource) {}
  void run(cl_kernel k, cl_mem in0, cl_mem in1, cl_mem out, std::size_t rows, std::size_t cols) {
    const double t0 = thread_cpu_seconds();
    int i = 0;
    clSetKernelArg(k, i++, sizeof in0, &in0);
    if (in1) clSetKernelArg(k, i++, sizeof in1, &in1);
    clSetKernelArg(k, i++, sizeof out, &out);
    std::size_t g[2] = {rows, cols};
    cl_event ev;
    check(clEnqueueNDRangeKernel(q, k, 2, nullptr, g, nullptr, 0, nullptr, &ev), "kernel");
    kernels.push_back(ev);
    submit_s += thread_cpu_seconds() - t0;
  }
  double submit_s = 0;  // in run(): what the CEI modes spend in Platform::submit
  // Summed durations of the kernels run so far (complete: every program ends with a blocking read).
  double kernel_seconds() {
    double s = 0;
    for (cl_event e : kernels) s += seconds(e);
    kernels.clear();
    return s;
  }
  std::vector<cl_event> kernels;
  // Blocking copies; each returns its profiled duration.
  double write(cl_mem m, std::size_t bytes, const float* src) {
    cl_event ev;
    check(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, src, 0, nullptr, &ev), "write");
    return seconds(ev);
  }
  double read(cl_mem m, std::size_t bytes, float* dst) {
    cl_event ev;
    check(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, dst, 0, nullptr, &ev), "read");
    return seconds(ev);
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

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
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
  res.submit_s = d.submit_s;
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
  res.submit_s = d.submit_s;
  for (cl_mem m : {a, b, c}) clReleaseMemObject(m);
  clReleaseKernel(k);
  return res;
}

}  // namespace cei::bench
