#include "cl_device.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cl_device {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: OpenCL error " + std::to_string(err));
}

double seconds(cl_event e) {
  cl_ulong a = 0, b = 0;
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr);
  clReleaseEvent(e);
  return b > a ? static_cast<double>(b - a) * 1e-9 : 0;
}

Device::Device(const char* program_source) {
  const char* match = std::getenv("CEI_OPENCL_DEVICE");
  cl_platform_id ps[16];
  cl_uint np = 0;
  check(clGetPlatformIDs(16, ps, &np), "clGetPlatformIDs");
  for (cl_uint i = 0; i < np && !dev; ++i) {
    cl_device_id ds[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS) continue;
    for (cl_uint j = 0; j < nd && !dev; ++j) {
      char name[256] = {};
      clGetDeviceInfo(ds[j], CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
      if (!match || std::strstr(name, match)) dev = ds[j];
    }
  }
  if (!dev) throw std::runtime_error("no matching OpenCL device");
  cl_int err = CL_SUCCESS;
  ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  prog = clCreateProgramWithSource(ctx, 1, &program_source, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  check(clBuildProgram(prog, 1, &dev, "", nullptr, nullptr), "clBuildProgram");
}

Device::~Device() {
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

cl_kernel Device::kernel(const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(prog, name, &err);
  check(err, "clCreateKernel");
  return k;
}

cl_mem Device::buffer(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &err);
  check(err, "clCreateBuffer");
  return m;
}

}  // namespace cl_device
