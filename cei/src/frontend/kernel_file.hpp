// Finds the kernel functions an OpenCL C source defines, so that a CEI's kernel name can be checked
// at build time: `__kernel void multiply(...)` (also `kernel`, with `__attribute__((...))`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cei::frontend {

std::vector<std::string> kernel_names(std::string_view opencl_source);

}  // namespace cei::frontend
