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
      DeviceInfo info{out.size(), device_string(d, CL_DEVICE_NAME),
                      device_string(d, CL_DEVICE_VENDOR), device_string(d, CL_DRIVER_VERSION),
                      platform_string(p, CL_PLATFORM_NAME)};
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
