// Doubling a vector, twice: `full` right, `half` with a work size that covers half of its result
// (halves.cei.hpp), for CEI_OPENCL_CHECK_RESULTS.
#pragma once

#include <cei/array.hpp>

namespace halves {
cei::Vector<float> full(const cei::Vector<float>& a);
cei::Vector<float> half(const cei::Vector<float>& a);
}  // namespace halves
