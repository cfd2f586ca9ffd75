// The Core Element Interface of the bezier example: one block of the surface per task.
#pragma once
#include <cei/cei.hpp>

#include "bezier.hpp"

// clang-format off
struct [[cei::interface]] BezierCEI {
  // One work-item per surface point; the offset makes get_global_id the point's surface row/column.
  [[cei::method(declaring_class = "bezier")]]
  [[cei::opencl(kernel = "bezier.cl", global_work_size = "par5, par5", offset = "par3, par4",
                result_size = "par5, par5")]]
  static cei::Matrix<float> patch([[cei::in]] const cei::Matrix<float>& control, int side,
                                  int resolution, int row0, int col0, int block);
};
// clang-format on
