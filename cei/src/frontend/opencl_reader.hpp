// `[[cei::opencl(...)]]`: resolves the kernel file against the CEI header, checks that it
// defines the kernel, that OpenCL can take the CE's types, and the work-size expressions
// (syntax, parameters, dimensions; result_size against the return type). With function = "ns::f"
// (a host function instead of a kernel): that the name is one and no kernel argument is given;
// the function's signature is the C++ compiler's to check, in the generated registry.
#pragma once

#include <cei/expr.hpp>

#include <vector>

#include "read_context.hpp"

namespace cei::frontend {

// The implementation `a` describes (an accurate one or, with approximate = true, the other).
model::OpenCL read_opencl(const ReadContext& rc, const model::CoreElement& ce, const ReadAttr& a);

// What expressions over the CE's parameters (work sizes, significance) may use of each.
std::vector<expr::ParamShape> param_shapes(const model::CoreElement& ce);

}  // namespace cei::frontend
