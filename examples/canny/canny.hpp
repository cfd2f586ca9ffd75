// Native implementations of the canny example's four Core Elements (see canny.cei.hpp). Frames
// are rows x cols matrices of gray levels 0..255; all arithmetic is integer, so the native and
// OpenCL versions agree exactly.
//
//   cei::Matrix<int> edges = canny::hysteresis(
//       canny::nonmax(canny::sobel(canny::gaussian(frame))), frame.extent(1), 40, 100);
#pragma once

#include <cei/array.hpp>

namespace canny {

// 5x5 Gaussian blur (sigma 1.4, integer weights summing to 159), borders clamped.
cei::Matrix<int> gaussian(const cei::Matrix<int>& image);
// Sobel gradient: [0] = |gx| + |gy|; [1] = its direction quantised to 0 (along a row),
// 1 (down-right), 2 (down a column), 3 (down-left), border pixels clamped.
cei::Array<int, 3> sobel(const cei::Matrix<int>& blurred);
// Keeps a magnitude only where it is a maximum across the edge; the one-pixel border is 0.
cei::Matrix<int> nonmax(const cei::Array<int, 3>& gradient);
// 255 where the magnitude is >= high or >= low and 8-connected to such a pixel, else 0.
// `width` repeats thin's extent(1) because the OpenCL kernel cannot see array extents.
cei::Matrix<int> hysteresis(const cei::Matrix<int>& thin, int width, int low, int high);

}  // namespace canny
