#include "cholesky_cl.hpp"

#include <clblast_c.h>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace chol_cl {

namespace {

void check(CLBlastStatusCode status, const char* what) {
  if (status != CLBlastSuccess)
    throw std::runtime_error(std::string(what) + ": CLBlast status " +
                             std::to_string(static_cast<int>(status)));
}

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + ": OpenCL error " + std::to_string(status));
}

// Scratch buffers kept for the process, one per queue, calling thread and use: the commands of
// one in-order queue run one after another, so every call can reuse the one buffer, where a buffer
// per call cost its allocation and release on the host for every tile (CLBlast's GEMM makes one
// per call unless given one). The queue is retained so that its handle is never another's.
enum Use { kGemmTemp, kTrsmCopy, kPotrfScratch, kUses };
cl_mem scratch(cl_command_queue queue, Use use, std::size_t bytes) {
  struct Slot {
    cl_mem mem = nullptr;
    std::size_t bytes = 0;
  };
  static std::mutex mu;
  static std::map<std::pair<cl_command_queue, std::thread::id>, std::array<Slot, kUses>> slots;
  std::lock_guard lock(mu);
  auto [it, fresh] = slots.try_emplace({queue, std::this_thread::get_id()});
  if (fresh) clRetainCommandQueue(queue);
  Slot& slot = it->second[use];
  if (slot.bytes >= bytes) return slot.mem;
  cl_context context = nullptr;
  check(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr),
        "chol_cl: clGetCommandQueueInfo");
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, "chol_cl: clCreateBuffer");
  if (slot.mem) clReleaseMemObject(slot.mem);  // freed once the commands that use it have run
  slot = {mem, bytes};
  return mem;
}

// C = alpha op(A) op(B) (beta 0 or 1), row-major, with this queue's GEMM scratch.
void sgemm(cl_command_queue& queue, CLBlastTranspose tb, std::size_t m, std::size_t n,
           std::size_t k, float alpha, cl_mem a, std::size_t a_off, std::size_t a_ld, cl_mem b,
           std::size_t b_off, std::size_t b_ld, float beta, cl_mem c, std::size_t c_off,
           std::size_t c_ld, cl_event* done, const char* what) {
  std::size_t bytes = 0;
  check(CLBlastSGemmTempBufferSize(CLBlastLayoutRowMajor, CLBlastTransposeNo, tb, m, n, k, a_off,
                                   a_ld, b_off, b_ld, c_off, c_ld, &queue, &bytes),
        what);
  check(CLBlastSgemmWithTempBuffer(CLBlastLayoutRowMajor, CLBlastTransposeNo, tb, m, n, k, alpha, a,
                                   a_off, a_ld, b, b_off, b_ld, beta, c, c_off, c_ld, &queue, done,
                                   bytes ? scratch(queue, kGemmTemp, bytes) : nullptr),
        what);
}

// The two kernels of the device potrf. chol_leaf factors one diagonal block of up to 64 x 64 in
// local memory with one work-group and inverts its L by forward substitution, a column per
// work-item; a block that is not positive definite leaves NaN (the square root of a negative),
// which the factorization carries to its result. zero_upper clears the upper triangles of A and
// L_inv, which the GEMMs that build L_inv read as zeros.
constexpr int kLeaf = 64;
constexpr std::size_t kLeafItems = 256;
const char* kSource = R"CLC(
#define LEAF 64
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void chol_leaf(__global float* A, __global float* X, uint n, uint off, uint m) {
  __local float a[LEAF][LEAF + 1];
  __local float x[LEAF][LEAF + 1];
  const uint t = get_local_id(0);
  for (uint e = t; e < m * m; e += 256) a[e / m][e % m] = A[(off + e / m) * n + off + e % m];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 0; k < m; ++k) {
    const float d = sqrt(a[k][k]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = k + t; i < m; i += 256) a[i][k] = i == k ? d : a[i][k] / d;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint r = m - k - 1;
    for (uint e = t; e < r * r; e += 256) {
      const uint i = k + 1 + e / r, j = k + 1 + e % r;
      if (j <= i) a[i][j] -= a[i][k] * a[j][k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t < m) {
    for (uint i = 0; i < m; ++i) {
      float s = i == t ? 1.0f : 0.0f;
      for (uint k = t; k < i; ++k) s -= a[i][k] * x[k][t];
      x[i][t] = i < t ? 0.0f : s / a[i][i];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint e = t; e < m * m; e += 256) {
    const uint i = e / m, j = e % m;
    A[(off + i) * n + off + j] = j <= i ? a[i][j] : 0.0f;
    X[(off + i) * n + off + j] = x[i][j];
  }
}
__kernel void zero_upper(__global float* A, __global float* X, uint n) {
  const uint i = get_global_id(1), j = get_global_id(0);
  if (j > i) { A[i * n + j] = 0.0f; X[i * n + j] = 0.0f; }
}
)CLC";

// The program, built once per context (a runtime has one per device).
cl_program program_for(cl_context context, cl_device_id device) {
  static std::mutex mu;
  static std::map<cl_context, cl_program> built;
  std::lock_guard lock(mu);
  if (auto it = built.find(context); it != built.end()) return it->second;
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  check(err, "chol_cl::potrf: clCreateProgramWithSource");
  if (err = clBuildProgram(p, 1, &device, "", nullptr, nullptr); err != CL_SUCCESS) {
    std::string log(16384, '\0');
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, log.size() - 1, log.data(), nullptr);
    clReleaseProgram(p);
    throw std::runtime_error("chol_cl::potrf: the kernels do not build: " + log);
  }
  return built[context] = p;
}

// One potrf's commands on the call's in-order queue: A (n x n, row-major) and its L_inv X, with a
// scratch buffer S of n * n / 4 floats.
struct Potrf {
  cl_command_queue queue;
  cl_kernel leaf;
  cl_mem A, X, S;
  cl_uint n;

  void enqueue(cl_kernel k, std::size_t dims, const std::size_t* global, const std::size_t* local,
               const char* what) {
    check(clEnqueueNDRangeKernel(queue, k, static_cast<cl_uint>(dims), nullptr, global, local, 0,
                                 nullptr, nullptr),
          what);
  }
  std::size_t at(std::size_t i, std::size_t j) const { return i * n + j; }
  void gemm(CLBlastTranspose tb, std::size_t m, std::size_t cols, std::size_t k, float alpha,
            cl_mem a, std::size_t a_off, std::size_t a_ld, cl_mem b, std::size_t b_off,
            std::size_t b_ld, cl_mem c, std::size_t c_off, std::size_t c_ld) {
    sgemm(queue, tb, m, cols, k, alpha, a, a_off, a_ld, b, b_off, b_ld, 0.0f, c, c_off, c_ld,
          nullptr, "chol_cl::potrf: CLBlastSgemm");
  }
  // Factors the diagonal block [off, off + m) and inverts its L, by halves: L11 and X11; L21 =
  // A21 X11^T (through X21, free until its turn); A22 -= L21 L21^T; L22 and X22; and then
  // X21 = -X22 (L21 X11).
  void factor(cl_uint off, cl_uint m) {
    if (m <= kLeaf) {
      for (cl_uint i = 0; i < 3; ++i)
        check(clSetKernelArg(leaf, 2 + i, sizeof(cl_uint),
                             i == 0   ? &n
                             : i == 1 ? &off
                                      : &m),
              "chol_cl::potrf: clSetKernelArg");
      enqueue(leaf, 1, &kLeafItems, &kLeafItems, "chol_cl::potrf: the leaf kernel");
      return;
    }
    const cl_uint h = m / 2 / 16 * 16, r = m - h;
    factor(off, h);
    gemm(CLBlastTransposeYes, r, h, h, 1.0f, A, at(off + h, off), n, X, at(off, off), n, X,
         at(off + h, off), n);
    const std::size_t origin[3] = {off * sizeof(float), off + h, 0};
    const std::size_t region[3] = {h * sizeof(float), r, 1};
    check(clEnqueueCopyBufferRect(queue, X, A, origin, origin, region, n * sizeof(float), 0,
                                  n * sizeof(float), 0, 0, nullptr, nullptr),
          "chol_cl::potrf: clEnqueueCopyBufferRect");
    check(CLBlastSsyrk(CLBlastLayoutRowMajor, CLBlastTriangleLower, CLBlastTransposeNo, r, h, -1.0f,
                       A, at(off + h, off), n, 1.0f, A, at(off + h, off + h), n, &queue, nullptr),
          "chol_cl::potrf: CLBlastSsyrk");
    factor(off + h, r);
    gemm(CLBlastTransposeNo, r, h, h, 1.0f, A, at(off + h, off), n, X, at(off, off), n, S, 0, h);
    gemm(CLBlastTransposeNo, r, h, r, -1.0f, X, at(off + h, off + h), n, S, 0, h, X,
         at(off + h, off), n);
  }
};

}  // namespace

cl_event potrf(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> L_inv) {
  const auto n = static_cast<cl_uint>(A.extent(0));
  cl_program program = program_for(call.context, call.device);
  cl_int err = CL_SUCCESS;
  cl_kernel zero = clCreateKernel(program, "zero_upper", &err);
  check(err, "chol_cl::potrf: clCreateKernel");
  cl_kernel leaf = clCreateKernel(program, "chol_leaf", &err);
  cl_event done = nullptr;
  try {
    check(err, "chol_cl::potrf: clCreateKernel");
    Potrf p{call.queue,
            leaf,
            A.mem,
            L_inv.mem,
            scratch(call.queue, kPotrfScratch, std::max<std::size_t>(1, A.bytes() / 4)),
            n};
    for (cl_uint i = 0; i < 2; ++i)
      for (cl_kernel k : {zero, leaf})
        check(clSetKernelArg(k, i, sizeof(cl_mem), i == 0 ? &A.mem : &L_inv.mem),
              "chol_cl::potrf: clSetKernelArg");
    check(clSetKernelArg(zero, 2, sizeof(cl_uint), &n), "chol_cl::potrf: clSetKernelArg");
    const std::size_t square[2] = {n, n};
    p.enqueue(zero, 2, square, nullptr, "chol_cl::potrf: the zero_upper kernel");
    p.factor(0, n);
    check(clEnqueueMarkerWithWaitList(call.queue, 0, nullptr, &done), "chol_cl::potrf: marker");
  } catch (...) {
    for (cl_kernel k : {zero, leaf})
      if (k) clReleaseKernel(k);
    throw;
  }
  // Released now: OpenCL keeps them until the commands that use them have run.
  clReleaseKernel(zero);
  clReleaseKernel(leaf);
  return done;
}

cl_event trsm(cei::OpenCLCall call, cei::DeviceMatrix<float> L_inv, cei::DeviceMatrix<float> B) {
  const std::size_t n = B.extent(0);
  cl_mem copy = scratch(call.queue, kTrsmCopy, B.bytes());
  check(clEnqueueCopyBuffer(call.queue, B.mem, copy, 0, 0, B.bytes(), 0, nullptr, nullptr),
        "chol_cl::trsm: clEnqueueCopyBuffer");
  cl_event done = nullptr;
  sgemm(call.queue, CLBlastTransposeYes, n, n, n, 1.0f, copy, 0, n, L_inv.mem, 0, n, 0.0f, B.mem, 0,
        n, &done, "chol_cl::trsm: CLBlastSgemm");
  return done;
}

cl_event syrk(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> C) {
  const std::size_t n = C.extent(0);
  cl_event done = nullptr;
  check(CLBlastSsyrk(CLBlastLayoutRowMajor, CLBlastTriangleLower, CLBlastTransposeNo, n, n, -1.0f,
                     A.mem, 0, n, 1.0f, C.mem, 0, n, &call.queue, &done),
        "chol_cl::syrk: CLBlastSsyrk");
  return done;
}

cl_event gemm(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> B,
              cei::DeviceMatrix<float> C) {
  const std::size_t n = C.extent(0);
  cl_event done = nullptr;
  sgemm(call.queue, CLBlastTransposeYes, n, n, n, -1.0f, A.mem, 0, n, B.mem, 0, n, 1.0f, C.mem, 0,
        n, &done, "chol_cl::gemm: CLBlastSgemm");
  return done;
}

}  // namespace chol_cl
