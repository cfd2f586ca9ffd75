// The CLBlast versions of blas.hpp's functions, in the form [[cei::opencl(function = ...)]] takes
// (cei/opencl_function.hpp). `calls` counts them, so that a test can tell that they ran.
#pragma once
#include <cei/opencl_function.hpp>

#include <atomic>

namespace blas_cl {
inline std::atomic<int> calls{0};

cl_event gemm(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> B,
              cei::DeviceMatrix<float> C);
// Two library calls, and no event: the runtime marks the end of the queue.
cl_event scaled(cei::OpenCLCall call, cei::DeviceVector<float> x, float a,
                cei::DeviceVector<float> result);
cl_event sum(cei::OpenCLCall call, cei::DeviceVector<float> x, cei::DeviceVector<float> total);
}  // namespace blas_cl
