// Runs one kernel of an example's .cl file on the first OpenCL device (PoCL in CI) the way the
// CEI contract describes: CE parameters in order (arrays as buffers, scalars by value), then a
// trailing result buffer of the given extents. Only the kernel tests use it, to check each
// kernel against its native twin without the runtime.
//
//   KernelFile file("examples/matmul/matmul.cl");
//   auto C = file.run<cei::Matrix<int>>("multiply", {n, n}, {}, {}, {n, n}, A, B);
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cei/array.hpp>

#include <array>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

class KernelFile {
 public:
  explicit KernelFile(const std::string& path);
  ~KernelFile();
  KernelFile(const KernelFile&) = delete;
  KernelFile& operator=(const KernelFile&) = delete;

  template <typename Result, typename... Args>
  Result run(const char* kernel, std::vector<std::size_t> global, std::vector<std::size_t> local,
             std::vector<std::size_t> offset,
             const std::array<std::size_t, Result::rank>& result_extents, const Args&... args) {
    cl_kernel k = create(kernel);
    std::vector<cl_mem> buffers;
    cl_uint index = 0;
    (set_arg(k, index++, args, buffers), ...);
    Result result(result_extents);
    cl_mem out = buffer(result.data(), result.size() * sizeof(typename Result::value_type), false);
    buffers.push_back(out);
    check(clSetKernelArg(k, index, sizeof(cl_mem), &out), "clSetKernelArg(result)");
    launch(k, global, local, offset);
    check(clEnqueueReadBuffer(queue_, out, CL_TRUE, 0,
                              result.size() * sizeof(typename Result::value_type), result.data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer");
    for (cl_mem b : buffers) clReleaseMemObject(b);
    clReleaseKernel(k);
    return result;
  }

 private:
  template <typename T, std::size_t R>
  void set_arg(cl_kernel k, cl_uint i, const cei::Array<T, R>& a, std::vector<cl_mem>& buffers) {
    cl_mem b = buffer(const_cast<T*>(a.data()), a.size() * sizeof(T), true);
    buffers.push_back(b);
    check(clSetKernelArg(k, i, sizeof(cl_mem), &b), "clSetKernelArg(array)");
  }
  template <typename T>
  requires std::is_arithmetic_v<T>
  void set_arg(cl_kernel k, cl_uint i, const T& v, std::vector<cl_mem>&) {
    check(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg(scalar)");
  }

  static void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS)
      throw std::runtime_error(std::string(what) + " failed: " + std::to_string(err));
  }
  cl_kernel create(const char* name);
  cl_mem buffer(void* host, std::size_t bytes, bool input);
  void launch(cl_kernel k, const std::vector<std::size_t>& global,
              const std::vector<std::size_t>& local, const std::vector<std::size_t>& offset);

  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
};
