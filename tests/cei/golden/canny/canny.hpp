#pragma once
#include <cei/array.hpp>
#include <cstddef>
#include <vector>

namespace canny {
void blur(const cei::Matrix<unsigned char>& in, cei::Matrix<unsigned char>& out, float sigma);
std::size_t count_edges(const std::vector<unsigned char>& pixels);
}  // namespace canny
