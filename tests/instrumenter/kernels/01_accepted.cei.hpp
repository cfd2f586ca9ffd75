// Kernels that take exactly what the OpenCL platform passes: ceic accepts them, silently.
#pragma once
#include <cei/cei.hpp>

#include <vector>

// clang-format off
struct [[cei::interface]] AcceptedCEI {
  // Scalars by value (const or not), inputs as __global or __constant pointers, const or not.
  [[cei::opencl(kernel = "01_accepted.cl", global_work_size = "par0.x")]]
  static void axpy([[cei::inout]] std::vector<double>& y, const std::vector<double>& x, double a,
                   const int n);

  // A typedef'd element type (uint), a 3-D array, a prototype before the definition.
  [[cei::opencl(kernel = "01_accepted.cl", global_work_size = "par0.x",
                result_size = "par0.x, par0.y, par0.z")]]
  static cei::Array<unsigned int, 3> widen(const cei::Array<unsigned char, 3>& in, long shift);

  // An out scalar and a scalar result travel in one-element buffers.
  [[cei::opencl(kernel = "01_accepted.cl", name = "total", global_work_size = "1",
                result_size = "1")]]
  static float sum(const cei::Vector<float>& v, [[cei::out]] int& count);

  // The body uses a macro the application passes in CEI_OPENCL_BUILD_OPTIONS: only the
  // signature is checked.
  [[cei::opencl(kernel = "01_accepted.cl", global_work_size = "par0.x")]]
  static void tune([[cei::out]] cei::Matrix<short>& m, unsigned short k);
};
// clang-format on
