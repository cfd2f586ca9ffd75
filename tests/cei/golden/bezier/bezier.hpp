#pragma once
#include <cei/array.hpp>
#include <cstdint>

namespace bezier {
void evaluate(const cei::Array<float, 3>& control, const cei::Vector<std::int64_t>& counts,
              int resolution, cei::Array<float, 3>& out);
cei::Vector<double> lengths(const cei::Array<float, 3>& control, int samples);
}  // namespace bezier
