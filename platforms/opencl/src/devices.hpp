// Every OpenCL device the ICD loader offers, in its order (platform by platform).
#pragma once

#include "cl.hpp"

#include <cei/opencl/opencl_platform.hpp>

#include <vector>

namespace cei::opencl {

struct Device {
  cl_platform_id platform;
  cl_device_id id;
  DeviceInfo info;
};

std::vector<Device> all_devices();

}  // namespace cei::opencl
