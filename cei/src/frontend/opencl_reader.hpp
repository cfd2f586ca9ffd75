// `[[cei::opencl(...)]]`: resolves the kernel file against the CEI header, checks that it
// defines the kernel, that OpenCL can take the CE's types, and the work-size expressions
// (syntax, parameters, dimensions; result_size against the return type).
#pragma once

#include "read_context.hpp"

namespace cei::frontend {

void read_opencl(const ReadContext& rc, model::CoreElement& ce, const ReadAttr& a);

}  // namespace cei::frontend
