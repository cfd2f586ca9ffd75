// Native implementation of the bezier example's Core Element (see bezier.cei.hpp).
//
//   // control: a side x side net of heights; the surface is sampled on resolution^2 points.
//   cei::Matrix<float> b = bezier::patch(control, 16, 1024, 0, 256, 256);  // rows 0.., cols 256..
#pragma once

#include <cei/array.hpp>

namespace bezier {

// Heights of the block of the Bezier surface with rows [row0, row0 + block) and columns
// [col0, col0 + block), the surface being sampled at resolution x resolution points of [0,1]^2.
// `side` repeats control's extent because the OpenCL kernel cannot see array extents.
cei::Matrix<float> patch(const cei::Matrix<float>& control, int side, int resolution, int row0,
                         int col0, int block);

}  // namespace bezier
