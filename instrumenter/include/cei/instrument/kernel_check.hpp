// Checks every CE's OpenCL kernel against the CE's signature, at build time: the OpenCL platform
// calls the kernel with the CE's parameters in order (scalar inputs by value, everything else as a
// `__global` buffer of the element type) and, for a CE with a result, one trailing `__global`
// buffer that receives it (docs/opencl.md, "Kernel arguments"). A kernel that takes something else
// would compute garbage at run time, so each difference is an error at the kernel parameter's
// `file:line:col` naming the CE parameter's, with a note at the CE.
//
//   cei::frontend::Diagnostics diags;
//   cei::instrument::check_kernels(models, diags);   // models from cei::frontend::parse_cei
//   if (diags.has_errors()) { std::cerr << diags.text(); return 2; }
//
// The kernel files are parsed by clang as OpenCL C 1.2 (its default header, no build options).
#pragma once

#include <cei/frontend.hpp>
#include <cei/model.hpp>

#include <vector>

namespace cei::instrument {

// Reentrant: reads only its arguments and the kernel files, appends to `diags`.
void check_kernels(const std::vector<model::Model>& models, frontend::Diagnostics& diags);

}  // namespace cei::instrument
