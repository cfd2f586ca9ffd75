// Generates an application's CE registry: one `const ::cei::rt::CeInfo __cei_ce_<Iface>_<name>`
// per Core Element, an invoker per native version, the OpenCL metadata (kernel text embedded) and
// a `::cei::rt::Registration`. The registry calls only the native versions, so the worker node
// links it without the application's instrumented main program.
//
//   std::vector<cei::model::Model> models = {cei::frontend::parse_cei("matmul.cei.hpp", args, d)};
//   std::string hpp = cei::instrument::registry_header(models);
//   std::string cpp = cei::instrument::registry_source(models, "matmul_registry.hpp");
#pragma once

#include <cei/model.hpp>

#include <string>
#include <vector>

namespace cei::instrument {

// The C++ identifier of a CE's CeInfo: "__cei_ce_MatmulCEI_multiply".
std::string ce_symbol(const model::CoreElement& ce);

std::string registry_header(const std::vector<model::Model>& models);

// `header_include` is how the source includes the generated header ("app_registry.hpp").
// Throws std::runtime_error when a kernel file cannot be read.
std::string registry_source(const std::vector<model::Model>& models,
                            const std::string& header_include);

}  // namespace cei::instrument
