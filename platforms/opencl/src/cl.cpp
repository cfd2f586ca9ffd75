#include "cl.hpp"

#include <vector>

namespace cei::opencl {

const char* error_name(cl_int err) {
  switch (err) {
#define CEI_CL_ERR(e) \
  case e:             \
    return #e;
    CEI_CL_ERR(CL_DEVICE_NOT_FOUND)
    CEI_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
    CEI_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    CEI_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CEI_CL_ERR(CL_OUT_OF_RESOURCES)
    CEI_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    CEI_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    CEI_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
    CEI_CL_ERR(CL_INVALID_VALUE)
    CEI_CL_ERR(CL_INVALID_DEVICE)
    CEI_CL_ERR(CL_INVALID_BINARY)
    CEI_CL_ERR(CL_INVALID_BUILD_OPTIONS)
    CEI_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    CEI_CL_ERR(CL_INVALID_KERNEL_NAME)
    CEI_CL_ERR(CL_INVALID_KERNEL_ARGS)
    CEI_CL_ERR(CL_INVALID_ARG_INDEX)
    CEI_CL_ERR(CL_INVALID_ARG_SIZE)
    CEI_CL_ERR(CL_INVALID_ARG_VALUE)
    CEI_CL_ERR(CL_INVALID_WORK_DIMENSION)
    CEI_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
    CEI_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
    CEI_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
    CEI_CL_ERR(CL_INVALID_EVENT_WAIT_LIST)
    CEI_CL_ERR(CL_INVALID_BUFFER_SIZE)
    CEI_CL_ERR(CL_INVALID_MEM_OBJECT)
    CEI_CL_ERR(CL_INVALID_COMMAND_QUEUE)
    CEI_CL_ERR(CL_INVALID_CONTEXT)
    CEI_CL_ERR(CL_INVALID_QUEUE_PROPERTIES)
    CEI_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    CEI_CL_ERR(CL_INVALID_PLATFORM)
#undef CEI_CL_ERR
    default:
      return "OpenCL error";
  }
}

std::pair<cl_ulong, cl_ulong> event_span(cl_event e) {
  cl_ulong start = 0, end = 0;
  if (clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) !=
          CL_SUCCESS ||
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) !=
          CL_SUCCESS ||
      start == 0 || end < start)  // a command failed before it started has no span
    return {0, 0};
  return {start, end};
}

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  check(clGetDeviceInfo(d, what, 0, nullptr, &n), "clGetDeviceInfo");
  std::vector<char> s(n);
  check(clGetDeviceInfo(d, what, n, s.data(), nullptr), "clGetDeviceInfo");
  return std::string(s.data(), n ? n - 1 : 0);
}

}  // namespace cei::opencl
