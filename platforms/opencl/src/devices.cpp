#include "devices.hpp"

#include <cstdlib>
#include <string>

namespace cei::opencl {

namespace {
std::string platform_string(cl_platform_id p, cl_platform_info what) {
  std::size_t n = 0;
  check(clGetPlatformInfo(p, what, 0, nullptr, &n), "clGetPlatformInfo");
  std::string s(n, '\0');
  check(clGetPlatformInfo(p, what, n, s.data(), nullptr), "clGetPlatformInfo");
  if (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

void describe_hardware(cl_device_id d, DeviceInfo& info) {
  cl_device_type type = 0;
  cl_ulong mem = 0;
  cl_uint units = 0;
  check(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, nullptr), "clGetDeviceInfo");
  check(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, nullptr),
        "clGetDeviceInfo");
  check(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr),
        "clGetDeviceInfo");
  info.type = type & CL_DEVICE_TYPE_GPU ? "GPU"
              : type & CL_DEVICE_TYPE_CPU ? "CPU"
              : type & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator"
                                                  : "other";
  info.global_mem_bytes = mem;
  info.compute_units = units;
}

}  // namespace

std::vector<Device> all_devices() {
  std::vector<Device> out;
  cl_uint np = 0;
  // No ICD or no platform: no OpenCL devices, which is a normal configuration.
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return out;
  std::vector<cl_platform_id> platforms(np);
  check(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id p : platforms) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> ids(nd);
    check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr), "clGetDeviceIDs");
    for (cl_device_id d : ids) {
      DeviceInfo info;
      info.index = out.size();
      info.name = device_string(d, CL_DEVICE_NAME);
      info.vendor = device_string(d, CL_DEVICE_VENDOR);
      info.driver_version = device_string(d, CL_DRIVER_VERSION);
      info.platform_name = platform_string(p, CL_PLATFORM_NAME);
      describe_hardware(d, info);
      out.push_back({p, d, std::move(info)});
    }
  }
  return out;
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  for (auto& d : all_devices()) out.push_back(d.info);
  return out;
}

}  // namespace cei::opencl
