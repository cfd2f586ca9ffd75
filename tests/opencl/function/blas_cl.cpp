#include "blas_cl.hpp"

#include <clblast_c.h>

#include <stdexcept>
#include <string>

namespace blas_cl {
namespace {
void check(CLBlastStatusCode status, const char* what) {
  if (status != CLBlastSuccess)
    throw std::runtime_error(std::string(what) + " failed: CLBlast status " +
                             std::to_string(static_cast<int>(status)));
}
}  // namespace

cl_event gemm(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> B,
              cei::DeviceMatrix<float> C) {
  ++calls;
  const std::size_t n = C.extent(0);
  cl_event done = nullptr;
  check(CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeYes, n, n, n,
                     -1.0f, A.mem, 0, n, B.mem, 0, n, 1.0f, C.mem, 0, n, &call.queue, &done),
        "CLBlastSgemm");
  return done;
}

cl_event scaled(cei::OpenCLCall call, cei::DeviceVector<float> x, float a,
                cei::DeviceVector<float> result) {
  ++calls;
  check(CLBlastScopy(x.size(), x.mem, 0, 1, result.mem, 0, 1, &call.queue, nullptr),
        "CLBlastScopy");
  check(CLBlastSscal(result.size(), a, result.mem, 0, 1, &call.queue, nullptr), "CLBlastSscal");
  return nullptr;
}

cl_event sum(cei::OpenCLCall call, cei::DeviceVector<float> x, cei::DeviceVector<float> total) {
  ++calls;
  cl_event done = nullptr;
  check(CLBlastSsum(x.size(), total.mem, 0, x.mem, 0, 1, &call.queue, &done), "CLBlastSsum");
  return done;
}

}  // namespace blas_cl
