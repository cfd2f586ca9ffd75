// The two versions of the bezier_budget example's Core Element (bezier_budget.cei.hpp): one block
// of the Bezier surface of examples/bezier, exact or coarse. `weight` (0..100) is the block's
// significance: how much its accuracy matters to the picture (the centre most).
//
//   cei::Matrix<float> b = exact::patch(control, 16, 1024, 0, 128, 128, 70);
#pragma once

#include <cei/array.hpp>

namespace exact {
// Every point of the block, as bezier::patch computes it.
cei::Matrix<float> patch(const cei::Matrix<float>& control, int side, int resolution, int row0,
                         int col0, int block, int weight);
}  // namespace exact

namespace coarse {
// The surface at every kStride-th point of the block (and its last row and column), bilinearly
// interpolated in between: about kStride^2 times fewer evaluations, with an error that grows
// where the surface curves.
inline constexpr int kStride = 32;
cei::Matrix<float> patch(const cei::Matrix<float>& control, int side, int resolution, int row0,
                         int col0, int block, int weight);
}  // namespace coarse
