// The registry's view of a Core Element: what `ceic` generates for every CE of an application
// and what every platform reads. Generated code fills these as constant tables:
//
//   static const cei::rt::ParamInfo params[] = {{"A", cei::rt::Dir::In, &cei::rt::type_ops<M>()},
//   ...}; static const cei::rt::NativeVersion versions[] = {{"matmul", &invoke_matmul_multiply}};
//   const cei::rt::CeInfo ce_multiply{"multiply", "MatmulCEI", false, params, 2,
//                                     &cei::rt::type_ops<M>(), versions, 1, &opencl_multiply};
//   static cei::rt::Registration reg(ce_multiply);
#pragma once

#include <cei/rt/type_ops.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cei::rt {

enum class Dir : std::uint8_t { In, Out, InOut };

// args[i] points to the storage of parameter i (for an instance CE, args[0] is the callee);
// when the CE returns a value, args[nparams] is the result's storage (already constructed).
using Invoker = void (*)(void* const* args);

struct NativeVersion {
  const char* declaring_class;  // "matmul" for matmul::multiply
  Invoker invoke;
  // [[cei::approximate]]: a cheaper, less accurate result with the same signature; run only when
  // a task's significance or its group's budget allows it.
  bool approximate = false;
};

// An OpenCL implementation that is a host function ([[cei::opencl(function = "ns::f")]]): the
// generated adapter calls ns::f with `call` (a cei::OpenCLCall, <cei/opencl_function.hpp>) and
// args[i] for CE parameter i: a cei::detail::DeviceBuffer for a buffer (an array, an out scalar,
// the result at args[nparams]), the host value for a scalar input. It returns ns::f's cl_event
// (whose reference the caller then owns), or null for "everything it enqueued on call.queue".
using OpenCLFunction = void* (*)(const void* call, void* const* args);

struct OpenCLImpl {
  const char* kernel_name;  // for a function: its name as written in the attribute
  const char* source;       // the kernel file's text, embedded at build time
  const char* source_path;  // for diagnostics (build logs name file:line)
  const char* global_work_size;
  const char* local_work_size;  // "" = driver's choice
  const char* offset;           // "" = zeros
  const char* result_size;      // "" for void CEs
  OpenCLFunction function = nullptr;  // set: a host function, and no kernel (source is "")
};

enum class FailurePolicy : std::uint8_t { Default, Retry, CancelSuccessors, Ignore, Fail };

struct FailureSpec {
  FailurePolicy policy = FailurePolicy::Default;
  int retries = -1;      // -1: the config's default
  long timeout_ms = -1;  // -1: none / the config's default
};

struct ParamInfo {
  const char* name;
  Dir dir;
  const TypeOps* type;
};

struct CeInfo {
  const char* name;
  const char* interface_name;
  bool is_instance;         // params[0] is the callee (inout)
  const ParamInfo* params;  // including the callee
  std::size_t nparams;
  const TypeOps* result;  // nullptr for void
  const NativeVersion* versions;
  std::size_t nversions;
  const OpenCLImpl* opencl;  // nullptr when the CE has no OpenCL implementation
  FailureSpec failure{};
  // The approximate OpenCL implementation ([[cei::opencl(..., approximate = true)]]), or nullptr.
  const OpenCLImpl* opencl_approximate = nullptr;
  // [[cei::significance("expr")]]: the quality weight of a task's result, 0-100, an expression
  // over the parameters as work sizes are; nullptr = 100 (always accurate).
  const char* significance = nullptr;
  // A task of significance 0 with no approximate version may be skipped, its outputs left as
  // they were.
  bool droppable = false;
  // [[cei::requires("expr")]]: conditions over the parameters (as work sizes are) that the
  // arguments of every task meet; one that does not fails before anything runs (requirements.hpp).
  const char* const* requirements = nullptr;
  std::size_t nrequirements = 0;
};

// Adds a CE to the process-wide registry (static initialisation of generated code).
void register_ce(const CeInfo& ce);
const CeInfo* find_ce(const char* interface_name, const char* name);
// Every registered CE, ordered by interface then name (a worker node lists them in GET /v1/info).
std::vector<const CeInfo*> registered_ces();

struct Registration {
  explicit Registration(const CeInfo& ce) { register_ce(ce); }
};

}  // namespace cei::rt
