#pragma once
#include <cei/opencl_function.hpp>

namespace app_cl {
// Not the signature [[cei::opencl(function = "app_cl::scale")]] needs for AppCEI::scale: alpha
// should be a float.
cl_event scale(cei::OpenCLCall call, cei::DeviceVector<float> x, double alpha);
}  // namespace app_cl
