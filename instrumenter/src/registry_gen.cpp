#include <cei/instrument/registry_gen.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace cei::instrument {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// A raw string literal whose delimiter does not occur in the text.
std::string raw_literal(const std::string& text) {
  std::string delim = "cei";
  for (int i = 0; text.find(")" + delim + "\"") != std::string::npos; ++i)
    delim = "cei" + std::to_string(i);
  return "R\"" + delim + "(" + text + ")" + delim + "\"";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read kernel file '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* dir_name(model::Direction d) {
  switch (d) {
    case model::Direction::Out:
      return "::cei::rt::Dir::Out";
    case model::Direction::InOut:
      return "::cei::rt::Dir::InOut";
    case model::Direction::In:
      break;
  }
  return "::cei::rt::Dir::In";
}

std::string failure_spec(const model::CoreElement& ce) {
  if (!ce.on_failure) return "{}";
  static const std::pair<const char*, const char*> policies[] = {
      {"retry", "Retry"},
      {"cancel_successors", "CancelSuccessors"},
      {"ignore", "Ignore"},
      {"fail", "Fail"}};
  std::string policy = "Default";
  for (auto [name, value] : policies)
    if (ce.on_failure->policy == name) policy = value;
  return "{::cei::rt::FailurePolicy::" + policy + ", " + std::to_string(ce.on_failure->retries) +
         ", " + std::to_string(ce.on_failure->timeout_ms) + "}";
}

std::string qualified(const std::string& cls) {
  return cls.rfind("::", 0) == 0 ? cls : "::" + cls;
}

// The OpenCL implementations of a CE with the names of their generated constants.
std::vector<std::pair<const model::OpenCL*, std::string>> opencl_impls(
    const model::CoreElement& ce) {
  const std::string id = ce.interface_name + "_" + ce.name;
  std::vector<std::pair<const model::OpenCL*, std::string>> out;
  if (ce.opencl) out.emplace_back(&*ce.opencl, "__cei_opencl_" + id);
  if (ce.opencl_approximate) out.emplace_back(&*ce.opencl_approximate, "__cei_opencl_approximate_" + id);
  return out;
}

// The adapter that calls a function implementation, beside its OpenCLImpl `symbol`.
std::string function_symbol(const std::string& symbol) {
  return "__cei_clfn" + symbol.substr(std::string("__cei_opencl").size());
}

void emit_opencl(std::ostringstream& o, const model::OpenCL& cl, const std::string& symbol) {
  if (!cl.function.empty()) {
    const std::string adapter = function_symbol(symbol);
    o << "void* " << adapter << "(const void* call, void* const* args);\n";
    o << "const ::cei::rt::OpenCLImpl " << symbol << "{" << quoted(cl.function)
      << ", \"\", \"\", \"\", \"\", \"\", " << quoted(cl.result_size) << ", &" << adapter
      << "};\n";
    return;
  }
  o << "const ::cei::rt::OpenCLImpl " << symbol << "{" << quoted(cl.name) << ",\n    "
    << raw_literal(read_file(cl.kernel_path)) << ",\n    " << quoted(cl.kernel_path) << ", "
    << quoted(cl.global_work_size) << ", " << quoted(cl.local_work_size) << ", "
    << quoted(cl.offset) << ", " << quoted(cl.result_size) << "};\n";
}

// How an OpenCL function receives a value of type t (cei/opencl_function.hpp): a buffer as a
// cei::DeviceArray, a scalar input by value.
std::string device_type(const model::Type& t, bool buffer) {
  if (!buffer) return t.spelling;
  return "::cei::DeviceArray<" + t.element + ", " + std::to_string(std::max(t.rank, 1)) + ">";
}

// The adapter from the platform's call to the user's function, bound to the exact function
// pointer type the attribute promises: a missing function or another signature is the C++
// compiler's error, placed by #line on the function's name in the CEI header.
void emit_function_adapter(std::ostringstream& o, const model::CoreElement& ce,
                           const model::OpenCL& cl, const std::string& adapter) {
  std::vector<std::pair<std::string, bool>> args;  // type, passed in a buffer
  for (const auto& p : ce.params) {
    const bool buffer =
        p.type.kind != model::TypeKind::Scalar || p.direction == model::Direction::Out;
    args.emplace_back(device_type(p.type, buffer), buffer);
  }
  if (ce.result.kind != model::TypeKind::Void) args.emplace_back(device_type(ce.result, true), true);
  o << "namespace {\nvoid* " << adapter << "(const void* call, void* const* args) {\n"
    << "  using Fn = ::cl_event (*)(::cei::OpenCLCall";
  for (const auto& [type, buffer] : args) o << ", " << type;
  o << ");\n  const Fn fn =\n#line " << cl.function_loc.line << " " << quoted(cl.function_loc.file)
    << "\n"
    << std::string(cl.function_loc.column > 0 ? cl.function_loc.column - 1 : 0, ' ')
    << cl.function << ";\n";
  o << "  return fn(*static_cast<const ::cei::OpenCLCall*>(call)";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& type = args[i].first;
    if (args[i].second)
      o << ", ::cei::detail::device_array<" << type.substr(type.find('<') + 1) << "(args[" << i
        << "])";
    else
      o << ", *static_cast<const " << type << "*>(args[" << i << "])";
  }
  o << ");\n}\n}  // namespace\n";
}

void emit_ce(std::ostringstream& o, const model::CoreElement& ce) {
  const std::string id = ce.interface_name + "_" + ce.name;
  const bool has_result = ce.result.kind != model::TypeKind::Void;
  const std::size_t callee = ce.is_static ? 0 : 1;
  const std::size_t nparams = ce.params.size() + callee;
  // Accurate versions first: a platform that runs no version the scheduler picks (a worker node)
  // runs version 0, which must then be the program's own result.
  std::vector<model::Version> versions = ce.versions;
  std::stable_partition(versions.begin(), versions.end(),
                        [](const model::Version& v) { return !v.approximate; });
  const std::string self_type = versions.empty() ? "void" : qualified(versions[0].declaring_class);

  for (std::size_t v = 0; v < versions.size(); ++v) {
    const std::string cls = qualified(versions[v].declaring_class);
    o << "void __cei_invoke_" << id << "_" << v << "(void* const* args) {\n  ";
    if (has_result) o << "*static_cast<" << ce.result.spelling << "*>(args[" << nparams << "]) = ";
    if (ce.is_static)
      o << cls << "::" << ce.name << "(";
    else
      o << "static_cast<" << cls << "*>(args[0])->" << ce.name << "(";
    for (std::size_t i = 0; i < ce.params.size(); ++i)
      o << (i ? ", " : "") << "*static_cast<" << ce.params[i].type.spelling << "*>(args["
        << i + callee << "])";
    o << ");\n}\n";
  }
  if (versions.empty() && !ce.params.empty()) o << "[[maybe_unused]] ";
  o << "const ::cei::rt::ParamInfo __cei_params_" << id << "[] = {\n";
  if (!ce.is_static)
    o << "    {\"this\", ::cei::rt::Dir::InOut, &::cei::rt::type_ops<" << self_type << ">()},\n";
  for (const auto& p : ce.params)
    o << "    {" << quoted(p.name) << ", " << dir_name(p.direction) << ", &::cei::rt::type_ops<"
      << p.type.spelling << ">()},\n";
  if (nparams == 0) o << "    {nullptr, ::cei::rt::Dir::In, nullptr},\n";
  o << "};\n";
  o << "const ::cei::rt::NativeVersion __cei_versions_" << id << "[] = {\n";
  for (std::size_t v = 0; v < versions.size(); ++v)
    o << "    {" << quoted(versions[v].declaring_class) << ", &__cei_invoke_" << id << "_" << v
      << ", " << (versions[v].approximate ? "true" : "false") << "},\n";
  if (versions.empty()) o << "    {nullptr, nullptr},\n";
  o << "};\n";
  for (const auto& [cl, symbol] : opencl_impls(ce)) emit_opencl(o, *cl, symbol);
  if (!ce.requirements.empty()) {
    o << "const char* const __cei_requires_" << id << "[] = {";
    for (std::size_t i = 0; i < ce.requirements.size(); ++i)
      o << (i ? ", " : "") << quoted(ce.requirements[i]);
    o << "};\n";
  }
  o << "}  // namespace\n\n";
  o << "const ::cei::rt::CeInfo " << ce_symbol(ce) << "{" << quoted(ce.name) << ", "
    << quoted(ce.interface_name) << ", " << (ce.is_static ? "false" : "true") << ", __cei_params_"
    << id << ", " << nparams << ", "
    << (has_result ? "&::cei::rt::type_ops<" + ce.result.spelling + ">()" : std::string("nullptr"))
    << ", __cei_versions_" << id << ", " << ce.versions.size() << ", "
    << (ce.opencl ? "&__cei_opencl_" + id : std::string("nullptr")) << ", " << failure_spec(ce)
    << ", " << (ce.opencl_approximate ? "&__cei_opencl_approximate_" + id : std::string("nullptr"))
    << ", " << (ce.significance.empty() ? std::string("nullptr") : quoted(ce.significance)) << ", "
    << (ce.droppable ? "true" : "false") << ", "
    << (ce.requirements.empty() ? std::string("nullptr") : "__cei_requires_" + id) << ", "
    << ce.requirements.size() << "};\n";
  o << "namespace {\nconst ::cei::rt::Registration __cei_registration_" << id << "{"
    << ce_symbol(ce) << "};\n";
}

bool has_function(const std::vector<model::Model>& models) {
  for (const auto& m : models)
    for (const auto& ce : m.ces)
      for (const auto& [cl, symbol] : opencl_impls(ce))
        if (!cl->function.empty()) return true;
  return false;
}

}  // namespace

std::string ce_symbol(const model::CoreElement& ce) {
  return "__cei_ce_" + ce.interface_name + "_" + ce.name;
}

std::string registry_header(const std::vector<model::Model>& models) {
  std::ostringstream o;
  o << "// Generated by ceic --registry: the application's Core Elements. Do not edit.\n"
       "#pragma once\n\n#include <cei/rt/ce.hpp>\n\n";
  for (const auto& m : models)
    for (const auto& ce : m.ces) o << "extern const ::cei::rt::CeInfo " << ce_symbol(ce) << ";\n";
  return o.str();
}

std::string registry_source(const std::vector<model::Model>& models,
                            const std::string& header_include) {
  std::ostringstream o;
  o << "// Generated by ceic --registry: the application's Core Elements. Do not edit.\n"
    << "#include " << quoted(header_include) << "\n\n";
  for (const auto& m : models)
    o << "#include " << quoted(std::filesystem::absolute(m.header).lexically_normal().string())
      << "\n";
  o << "\n#include <cei/rt/type_ops.hpp>\n";
  if (has_function(models)) o << "#include <cei/opencl_function.hpp>\n";
  o << "\n";
  for (const auto& m : models)
    for (const auto& ce : m.ces) {
      o << "namespace {\n";
      emit_ce(o, ce);
      o << "}  // namespace\n\n";
    }
  // Last: their #line directives name the CEI header, and no generated code follows them there.
  for (const auto& m : models)
    for (const auto& ce : m.ces)
      for (const auto& [cl, symbol] : opencl_impls(ce))
        if (!cl->function.empty()) emit_function_adapter(o, ce, *cl, function_symbol(symbol));
  return o.str();
}

}  // namespace cei::instrument
