// The Core Element Interface of the bezier example: one block of the surface per task.
#pragma once
#include <cei/cei.hpp>

#include "bezier.hpp"

// clang-format off
struct [[cei::interface]] BezierCEI {
  // One work-item per point of the block. (No global offset: PoCL 3.1 aborts in
  // pocl_release_dlhandle_cache when launches with different non-zero offsets run concurrently.)
  [[cei::method(declaring_class = "bezier")]]
  [[cei::opencl(kernel = "bezier.cl", global_work_size = "par5, par5",
                result_size = "par5, par5")]]
  static cei::Matrix<float> patch([[cei::in]] const cei::Matrix<float>& control, int side,
                                  int resolution, int row0, int col0, int block);
};
// clang-format on
