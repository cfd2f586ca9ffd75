// The CE model: what the CEI parser reads out of a CEI header and what `ceic` generates code
// from. `ceic --dump-cei FILE` prints it as JSON (to_json below).
//
//   cei::frontend::Diagnostics diags;                                // cei/frontend.hpp
//   cei::model::Model m = cei::frontend::parse_cei("matmul.cei.hpp", {"-I."}, diags);
//   for (auto& ce : m.ces) std::cout << ce.name << " " << ce.versions.size() << "\n";
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cei::model {

struct Location {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

enum class Direction { In, Out, InOut };

enum class TypeKind { Void, Scalar, Array, StdVector, String, Object };

struct Type {
  std::string spelling;  // fully qualified, no cv/ref: "cei::Array<int, 2>", "double", "Sim"
  TypeKind kind = TypeKind::Void;
  std::string element;  // arithmetic element type for Scalar/Array/StdVector/String: "int"
  int rank = 0;         // 0 for scalars and objects, 1 for vectors/strings, 1..3 for arrays
};

struct Param {
  std::string name;
  Type type;
  Direction direction = Direction::In;
  bool is_const = false;
  bool is_reference = false;
  Location loc;
};

struct Version {
  std::string declaring_class;  // namespace or class: "matmul" -> matmul::multiply
  Location loc;
  // [[cei::approximate]]: a cheaper, less accurate result; never the target of a call ceic turns
  // into a task (a call the program writes to it runs as written).
  bool approximate = false;
};

struct OpenCL {
  std::string kernel;       // as written in the attribute
  std::string kernel_path;  // resolved against the CEI header's directory
  std::string name;         // kernel function name (defaults to the CE's name)
  std::string global_work_size, local_work_size, offset, result_size;
  Location loc;
  // function = "ns::f": a host function instead of a kernel (kernel, kernel_path, name and the
  // work sizes are empty); function_loc is the name's first character in the attribute.
  std::string function;
  Location function_loc;
};

struct OnFailure {
  std::string policy;  // "retry" | "cancel_successors" | "ignore" | "fail"
  int retries = -1;
  long timeout_ms = -1;
};

struct CoreElement {
  std::string interface_name;  // the [[cei::interface]] struct
  std::string name;
  bool is_static = true;  // false: an instance method; the callee is an implicit inout
  std::vector<Version> versions;
  std::vector<Param> params;  // the callee is not listed
  Type result;                // kind Void for void CEs
  std::optional<OpenCL> opencl;
  std::optional<OnFailure> on_failure;
  Location loc;
  std::optional<OpenCL> opencl_approximate;  // [[cei::opencl(..., approximate = true)]]
  // [[cei::significance("expr", droppable = true)]]: "" when absent (always accurate).
  std::string significance;
  bool droppable = false;
  // [[cei::requires("expr")]], in the order written: conditions every call's arguments meet.
  std::vector<std::string> requirements;
};

struct Model {
  std::string header;  // the CEI header's path as given
  std::vector<CoreElement> ces;
};

std::string to_json(const Model& m, int indent = 2);

}  // namespace cei::model
