// OpenCL versions of the Cholesky example's tile kernels (cholesky.hpp), as functions that call
// CLBlast on the device's buffers ([[cei::opencl(function = ...)]], cei/opencl_function.hpp).
// potrf is CLBlast calls around a kernel of this file that factors and inverts 64 x 64 blocks.
#pragma once

#include <cei/opencl_function.hpp>

namespace chol_cl {

// A = L (zeros above the diagonal) and L_inv = L^-1, as chol::potrf: recursively by halves down
// to blocks of 64, SGEMM and SSYRK between them. A tile that is not positive definite leaves NaN.
cl_event potrf(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> L_inv);
// B = B L_inv^T: a copy of B, then SGEMM.
cl_event trsm(cei::OpenCLCall call, cei::DeviceMatrix<float> L_inv, cei::DeviceMatrix<float> B);
// C -= A A^T on the lower triangle: SSYRK.
cl_event syrk(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> C);
// C -= A B^T: SGEMM.
cl_event gemm(cei::OpenCLCall call, cei::DeviceMatrix<float> A, cei::DeviceMatrix<float> B,
              cei::DeviceMatrix<float> C);

}  // namespace chol_cl
