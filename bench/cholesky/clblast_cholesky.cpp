// The hand-written twin of examples/cholesky on one OpenCL device: the same tiles, the same
// right-looking loop and the same tile calls, the example's device versions
// (examples/cholesky/cholesky_cl.cpp: CLBlast, and a kernel of its own in potrf; with `cpu`,
// potrf by LAPACKE spotrf + strtri on the CPU), written as host code a user would write without a
// runtime: every tile resident on the device, one in-order queue (with `cpu`, the diagonal tile
// read back for potrf and its L and L_inv written again). What CEI's only:opencl0 row can reach
// with the same libraries; and, with `calls`, each call alone, back to back on device buffers.
//   cei-cholesky-clblast N TILES [RUNS=3] [cpu]  one line per run: "... time S s, G GFlop/s"
//   cei-cholesky-clblast calls B [REPS=50]       SGEMM/SSYRK on B x B tiles, TFlop/s
// The device: the first GPU, else the first device of the first platform.
#include <CL/cl.h>
#include <lapacke.h>

#include "cholesky_cl.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void check(cl_int s, const char* what) {
  if (s != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + ": OpenCL error " + std::to_string(s));
}

struct Device {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  std::string name;
  Device() {
    cl_uint np = 0;
    check(clGetPlatformIDs(0, nullptr, &np), "clGetPlatformIDs");
    std::vector<cl_platform_id> ps(np);
    check(clGetPlatformIDs(np, ps.data(), nullptr), "clGetPlatformIDs");
    cl_device_id& dev = device;
    for (cl_platform_id p : ps)
      if (!dev && clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS)
        dev = nullptr;
    if (!dev)
      check(clGetDeviceIDs(ps.at(0), CL_DEVICE_TYPE_ALL, 1, &dev, nullptr), "clGetDeviceIDs");
    char buf[256] = {};
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof buf - 1, buf, nullptr);
    name = buf;
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    queue = clCreateCommandQueueWithProperties(context, dev, nullptr, &err);
    check(err, "clCreateCommandQueueWithProperties");
  }
  cl_mem buffer(std::size_t bytes) const {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    check(err, "clCreateBuffer");
    return m;
  }
};

float entry(std::size_t i, std::size_t j, std::size_t n) {
  return 1.0f / (1.0f + static_cast<float>(i) + static_cast<float>(j)) +
         (i == j ? static_cast<float>(n) : 0.0f);
}

// The example's device versions (examples/cholesky/cholesky_cl.hpp), on this queue.
cei::OpenCLCall call(const Device& d) {
  return {d.queue, d.context, d.device, {}};
}
cei::DeviceMatrix<float> tile(cl_mem m, std::size_t b) {
  return {m, {b, b}};
}
void release(cl_event e) {
  if (e) clReleaseEvent(e);
}
void gemm_nt(const Device& d, std::size_t b, cl_mem A, cl_mem B, cl_mem C) {
  release(chol_cl::gemm(call(d), tile(A, b), tile(B, b), tile(C, b)));
}
void syrk(const Device& d, std::size_t b, cl_mem A, cl_mem C) {
  release(chol_cl::syrk(call(d), tile(A, b), tile(C, b)));
}

// potrf of tile (k, k) on the CPU, as chol::potrf: L in the lower triangle, zeros above, and L_inv.
void potrf_cpu(const Device& d, std::size_t b, cl_mem A, cl_mem L_inv, std::vector<float>& host,
               std::vector<float>& inv) {
  const int n = static_cast<int>(b);
  check(clEnqueueReadBuffer(d.queue, A, CL_TRUE, 0, b * b * 4, host.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  if (LAPACKE_spotrf(LAPACK_ROW_MAJOR, 'L', n, host.data(), n) != 0)
    throw std::runtime_error("spotrf");
  for (std::size_t i = 0; i < b; ++i)
    for (std::size_t j = i + 1; j < b; ++j) host[i * b + j] = 0.f;
  inv = host;
  if (LAPACKE_strtri(LAPACK_ROW_MAJOR, 'L', 'N', n, inv.data(), n) != 0)
    throw std::runtime_error("strtri");
  check(clEnqueueWriteBuffer(d.queue, A, CL_FALSE, 0, b * b * 4, host.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
  check(
      clEnqueueWriteBuffer(d.queue, L_inv, CL_TRUE, 0, b * b * 4, inv.data(), 0, nullptr, nullptr),
      "clEnqueueWriteBuffer");
}

// examples/cholesky's checksum of L: sum of l_ij (i + 1) / (j + 1) over the lower triangle.
double checksum(const Device& d, const std::vector<cl_mem>& A, std::size_t n, std::size_t tiles) {
  const std::size_t b = n / tiles;
  std::vector<float> t(b * b);
  double sum = 0;
  for (std::size_t I = 0; I < tiles; ++I)
    for (std::size_t J = 0; J <= I; ++J) {
      check(clEnqueueReadBuffer(d.queue, A[I * tiles + J], CL_TRUE, 0, b * b * 4, t.data(), 0,
                                nullptr, nullptr),
            "clEnqueueReadBuffer");
      for (std::size_t i = 0; i < b; ++i)
        for (std::size_t j = 0; j < b && J * b + j <= I * b + i; ++j)
          sum += static_cast<double>(t[i * b + j]) * static_cast<double>(I * b + i + 1) /
                 static_cast<double>(J * b + j + 1);
    }
  return sum;
}

// potrf of tile (k, k): the example's device version, or LAPACKE's on the CPU.
void potrf(const Device& d, bool on_cpu, std::size_t b, cl_mem A, cl_mem L_inv,
           std::vector<float>& host, std::vector<float>& inv) {
  if (on_cpu) return potrf_cpu(d, b, A, L_inv, host, inv);
  release(chol_cl::potrf(call(d), tile(A, b), tile(L_inv, b)));
}

double factorize(const Device& d, bool cpu_potrf, std::size_t n, std::size_t tiles, double& potrf_s,
                 double& sum) {
  const std::size_t b = n / tiles, bytes = b * b * 4;
  std::vector<cl_mem> A(tiles * tiles, nullptr), L_inv(tiles, nullptr);
  std::vector<float> host(b * b), inv(b * b);
  for (std::size_t I = 0; I < tiles; ++I) {
    L_inv[I] = d.buffer(bytes);
    for (std::size_t J = 0; J <= I; ++J) {
      for (std::size_t i = 0; i < b; ++i)
        for (std::size_t j = 0; j < b; ++j) host[i * b + j] = entry(I * b + i, J * b + j, n);
      A[I * tiles + J] = d.buffer(bytes);
      check(clEnqueueWriteBuffer(d.queue, A[I * tiles + J], CL_TRUE, 0, bytes, host.data(), 0,
                                 nullptr, nullptr),
            "clEnqueueWriteBuffer");
    }
  }
  check(clFinish(d.queue), "clFinish");
  potrf_s = 0;
  const auto start = Clock::now();
  for (std::size_t k = 0; k < tiles; ++k) {
    const auto p = Clock::now();
    potrf(d, cpu_potrf, b, A[k * tiles + k], L_inv[k], host, inv);
    potrf_s += since(p);
    for (std::size_t i = k + 1; i < tiles; ++i)  // B := B L^-T
      release(chol_cl::trsm(call(d), tile(L_inv[k], b), tile(A[i * tiles + k], b)));
    for (std::size_t i = k + 1; i < tiles; ++i) {
      syrk(d, b, A[i * tiles + k], A[i * tiles + i]);
      for (std::size_t j = k + 1; j < i; ++j)
        gemm_nt(d, b, A[i * tiles + k], A[j * tiles + k], A[i * tiles + j]);
    }
  }
  check(clFinish(d.queue), "clFinish");
  const double s = since(start);
  sum = checksum(d, A, n, tiles);
  for (cl_mem m : A)
    if (m) clReleaseMemObject(m);
  for (cl_mem m : L_inv) clReleaseMemObject(m);
  return s;
}

// Each call alone, REPS back to back on one queue after a warm-up: the device's rate for one tile.
void calls(const Device& d, std::size_t b, int reps) {
  cl_mem A = d.buffer(b * b * 4), B = d.buffer(b * b * 4), C = d.buffer(b * b * 4);
  std::vector<float> zero(b * b, 0.001f);
  for (cl_mem m : {A, B, C})
    check(clEnqueueWriteBuffer(d.queue, m, CL_TRUE, 0, b * b * 4, zero.data(), 0, nullptr, nullptr),
          "write");
  const double flop = 2.0 * static_cast<double>(b) * b * b;
  for (int pass = 0; pass < 2; ++pass) {  // the first pass builds CLBlast's kernels
    auto t = Clock::now();
    for (int r = 0; r < reps; ++r) gemm_nt(d, b, A, B, C);
    check(clFinish(d.queue), "clFinish");
    const double g = since(t) / reps;
    t = Clock::now();
    for (int r = 0; r < reps; ++r) syrk(d, b, A, C);
    check(clFinish(d.queue), "clFinish");
    const double s = since(t) / reps;
    if (pass == 1)
      std::printf("clblast b=%zu on %s: sgemm %.3f ms %.2f TFlop/s, ssyrk %.3f ms %.2f TFlop/s\n",
                  b, d.name.c_str(), g * 1e3, flop / g * 1e-12, s * 1e3, flop / 2 / s * 1e-12);
  }
  for (cl_mem m : {A, B, C}) clReleaseMemObject(m);
}

std::size_t whole(const char* s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0' || v == 0 || s[0] == '-') throw std::invalid_argument(s);
  return static_cast<std::size_t>(v);
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 3 || argc > 5) throw std::invalid_argument("arguments");
  const Device d;
  if (std::string(argv[1]) == "calls") {
    calls(d, whole(argv[2]), argc == 4 ? static_cast<int>(whole(argv[3])) : 50);
    return 0;
  }
  const std::size_t n = whole(argv[1]), tiles = whole(argv[2]),
                    runs = argc >= 4 ? whole(argv[3]) : 3;
  if (n % tiles != 0) throw std::invalid_argument("TILES must divide N");
  if (argc == 5 && std::string(argv[4]) != "cpu") throw std::invalid_argument(argv[4]);
  const bool cpu_potrf = argc == 5;
  const double flop = static_cast<double>(n) * n * n / 3;
  for (std::size_t r = 0; r < runs; ++r) {
    double potrf_s = 0, sum = 0;
    const double s = factorize(d, cpu_potrf, n, tiles, potrf_s, sum);
    std::printf(
        "clblast_cholesky n=%zu tiles=%zu on %s: potrf on the %s %.3f s, checksum %.10e; "
        "time %.3f s, %.2f GFlop/s\n",
        n, tiles, d.name.c_str(), cpu_potrf ? "CPU" : "device (enqueueing)", potrf_s, sum, s,
        flop / s * 1e-9);
  }
  return 0;
} catch (const std::invalid_argument&) {
  std::fprintf(stderr,
               "usage: %s N TILES [RUNS=3] [cpu] | %s calls B [REPS=50]  (TILES divides N)\n",
               argv[0], argv[0]);
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "cei-cholesky-clblast: %s\n", e.what());
  return 1;
}
