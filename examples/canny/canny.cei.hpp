// The Core Element Interface of the canny example: the four stages of the edge detector.
#pragma once
#include <cei/cei.hpp>

#include "canny.hpp"

// clang-format off
struct [[cei::interface]] CannyCEI {
  [[cei::method(declaring_class = "canny")]]
  [[cei::opencl(kernel = "canny.cl", global_work_size = "par0.x, par0.y",
                result_size = "par0.x, par0.y")]]
  static cei::Matrix<int> gaussian([[cei::in]] const cei::Matrix<int>& image);

  [[cei::method(declaring_class = "canny")]]
  [[cei::opencl(kernel = "canny.cl", global_work_size = "par0.x, par0.y",
                result_size = "2, par0.x, par0.y")]]
  static cei::Array<int, 3> sobel([[cei::in]] const cei::Matrix<int>& blurred);

  [[cei::method(declaring_class = "canny")]]
  [[cei::opencl(kernel = "canny.cl", global_work_size = "par0.y, par0.z",
                result_size = "par0.y, par0.z")]]
  static cei::Matrix<int> nonmax([[cei::in]] const cei::Array<int, 3>& gradient);

  // Connectivity is global, so the kernel runs as one work-group with one work-item per row
  // (frames up to the device's maximum work-group size in rows: 1024 on NVIDIA GPUs).
  [[cei::method(declaring_class = "canny")]]
  [[cei::opencl(kernel = "canny.cl", global_work_size = "par0.x", local_work_size = "par0.x",
                result_size = "par0.x, par0.y")]]
  static cei::Matrix<int> hysteresis([[cei::in]] const cei::Matrix<int>& thin, int width, int low,
                                     int high);
};
// clang-format on
