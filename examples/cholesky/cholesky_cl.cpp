#include "cholesky_cl.hpp"

#include <clblast_c.h>

#include <stdexcept>
#include <string>

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

}  // namespace

cl_event trsm(cei::OpenCLCall call, cei::DeviceMatrix<float> L_inv, cei::DeviceMatrix<float> B) {
  const std::size_t n = B.extent(0);
  cl_int err = CL_SUCCESS;
  // Released now: OpenCL frees it once the commands that use it have run.
  cl_mem copy = clCreateBuffer(call.context, CL_MEM_READ_WRITE, B.bytes(), nullptr, &err);
  check(err, "chol_cl::trsm: clCreateBuffer");
  cl_event done = nullptr;
  err = clEnqueueCopyBuffer(call.queue, B.mem, copy, 0, 0, B.bytes(), 0, nullptr, nullptr);
  if (err == CL_SUCCESS)
    check(CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeYes, n, n, n,
                       1.0f, copy, 0, n, L_inv.mem, 0, n, 0.0f, B.mem, 0, n, &call.queue, &done),
          "chol_cl::trsm: CLBlastSgemm");
  clReleaseMemObject(copy);
  check(err, "chol_cl::trsm: clEnqueueCopyBuffer");
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
  check(CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeYes, n, n, n,
                     -1.0f, A.mem, 0, n, B.mem, 0, n, 1.0f, C.mem, 0, n, &call.queue, &done),
        "chol_cl::gemm: CLBlastSgemm");
  return done;
}

}  // namespace chol_cl
