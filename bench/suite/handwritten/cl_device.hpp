// One OpenCL device as plain host code without a runtime opens it, shared by the hand-written
// programs (the suite's "GPU" column, cl_host.cpp, and cei_opencl_bench's baselines): the first
// device whose name contains CEI_OPENCL_DEVICE (any device when unset), like the runtime's, with
// one in-order profiled queue and one program built from source.
//
//   cl_device::Device d(kernel_source);
//   cl_mem m = d.buffer(bytes);
//   cl_event e;
//   cl_device::check(clEnqueueWriteBuffer(d.q, m, CL_TRUE, 0, bytes, src, 0, nullptr, &e),
//   "write"); double s = cl_device::seconds(e);  // profiled duration; releases e
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstddef>

namespace cl_device {

// Throws std::runtime_error naming the call and the error code.
void check(cl_int err, const char* what);

// The profiled duration of a finished command in seconds (0 when unknown); releases the event.
double seconds(cl_event e);

struct Device {
  explicit Device(const char* program_source);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  cl_kernel kernel(const char* name);  // the caller releases it
  cl_mem buffer(std::size_t bytes);    // read-write, at least one byte; the caller releases it

  cl_device_id dev{};
  cl_context ctx{};
  cl_command_queue q{};
  cl_program prog{};
};

}  // namespace cl_device
