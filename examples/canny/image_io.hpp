// Image files for the canny example (stb_image / stb_image_write).
#pragma once

#include <cei/array.hpp>

#include <string>

// The image at `path` as gray levels 0..255 (rows x cols); throws std::runtime_error.
cei::Matrix<int> read_gray(const std::string& path);
// Writes gray levels (clamped to 0..255) as an 8-bit PNG; throws std::runtime_error.
void write_gray_png(const std::string& path, const cei::Matrix<int>& image);
