#include "opencl_runner.hpp"

#include <fstream>
#include <sstream>

KernelFile::KernelFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();

  cl_platform_id platform;
  cl_uint count = 0;
  check(clGetPlatformIDs(1, &platform, &count), "clGetPlatformIDs");
  cl_device_id device;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
  cl_int err = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  queue_ = clCreateCommandQueue(context_, device, 0, &err);
  check(err, "clCreateCommandQueue");
  const char* src = source.c_str();
  program_ = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program_, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
    std::size_t size = 0;
    clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    throw std::runtime_error(path + ": build failed:\n" + log);
  }
}

KernelFile::~KernelFile() {
  if (program_) clReleaseProgram(program_);
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

cl_kernel KernelFile::create(const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program_, name, &err);
  check(err, name);
  return k;
}

cl_mem KernelFile::buffer(void* host, std::size_t bytes, bool input) {
  cl_int err = CL_SUCCESS;
  cl_mem b =
      clCreateBuffer(context_, input ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_WRITE_ONLY,
                     bytes ? bytes : 1, input && bytes ? host : nullptr, &err);
  check(err, "clCreateBuffer");
  return b;
}

void KernelFile::launch(cl_kernel k, const std::vector<std::size_t>& global,
                        const std::vector<std::size_t>& local,
                        const std::vector<std::size_t>& offset) {
  check(clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(global.size()),
                               offset.empty() ? nullptr : offset.data(), global.data(),
                               local.empty() ? nullptr : local.data(), 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clFinish(queue_), "clFinish");
}
