#include "opencl_reader.hpp"

#include <cei/expr.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "kernel_file.hpp"

namespace cei::frontend {
namespace {

namespace fs = std::filesystem;
using model::TypeKind;

void check_kernel_file(const ReadContext& rc, const ReadAttr& a, const AttrArg& kernel,
                       const model::OpenCL& o) {
  std::ifstream in(o.kernel_path);
  if (!in)
    return rc.diags.error(
        rc.arg_loc(a, kernel),
        "kernel file '" + o.kernel + "' not found (looked for '" + o.kernel_path + "')");
  std::stringstream text;
  text << in.rdbuf();
  const auto names = kernel_names(text.str());
  if (std::find(names.begin(), names.end(), o.name) != names.end()) return;
  const AttrArg* name_arg = a.arg("name");
  rc.diags.error(name_arg ? rc.arg_loc(a, *name_arg) : rc.loc(a.raw->loc),
                 "kernel '" + o.name + "' not found in '" + o.kernel + "'" +
                     (names.empty() ? std::string(" (it defines no kernels)")
                                    : " (it defines: " + join(names) + ")"));
}

void check_opencl_types(const ReadContext& rc, const model::CoreElement& ce) {
  auto fits = [](const model::Type& t) {
    const bool arithmetic = t.element != "bool";
    return (t.kind == TypeKind::Scalar || t.kind == TypeKind::Array ||
            t.kind == TypeKind::StdVector) &&
           arithmetic;
  };
  const char* why = ": OpenCL kernels take arithmetic scalars and contiguous arrays of them";
  if (!ce.is_static)
    rc.diags.error(ce.loc, "the OpenCL implementation of instance CE '" + ce.name +
                               "' cannot take its callee object" + std::string(why));
  for (const auto& p : ce.params)
    if (!fits(p.type))
      rc.diags.error(p.loc, "the OpenCL implementation of CE '" + ce.name +
                                "' cannot take parameter '" + p.name + "' of type '" +
                                p.type.spelling + "'" + why);
  if (ce.result.kind != TypeKind::Void && !fits(ce.result))
    rc.diags.error(ce.loc, "the OpenCL implementation of CE '" + ce.name + "' cannot return '" +
                               ce.result.spelling + "'" + why);
}

// `keys`: the expressions this kind of implementation takes (a function has result_size only).
void check_expressions(const ReadContext& rc, const model::CoreElement& ce, const ReadAttr& a,
                       std::initializer_list<const char*> keys) {
  const std::vector<expr::ParamShape> shapes = param_shapes(ce);
  std::optional<std::size_t> gws_dims;
  for (const char* key : keys) {
    const AttrArg* arg = a.arg(key);
    if (!arg) continue;
    if (std::string(key) == "result_size" && ce.result.kind == TypeKind::Void) {
      rc.diags.error(rc.loc_at(a, arg->key_offset),
                     "'result_size' given but CE '" + ce.name + "' returns void");
      continue;
    }
    std::optional<expr::ExprList> e;
    try {
      e = expr::parse(arg->text);
      expr::check(*e, shapes);
    } catch (const expr::Error& err) {
      rc.diags.error(rc.expr_loc(a, *arg, err.column),
                     std::string(key) + ": " + err.what() + " (column " +
                         std::to_string(err.column) + " of \"" + arg->text + "\")");
      continue;
    }
    const std::size_t dims = e->dims.size();
    if (!gws_dims) gws_dims = dims;
    const bool is_result = std::string(key) == "result_size";
    const std::size_t want =
        is_result ? static_cast<std::size_t>(std::max(ce.result.rank, 1)) : *gws_dims;
    if (dims != want)
      rc.diags.error(rc.arg_loc(a, *arg),
                     std::string(key) + " has " + std::to_string(dims) + " dimension(s) but " +
                         (is_result ? "the result '" + ce.result.spelling + "' has "
                                    : std::string("global_work_size has ")) +
                         std::to_string(want));
  }
  if (ce.result.kind != TypeKind::Void && !a.arg("result_size"))
    rc.diags.error(rc.loc(a.raw->loc),
                   "missing 'result_size': CE '" + ce.name + "' returns '" + ce.result.spelling +
                       "', so its OpenCL implementation needs the result's size");
}

void read_kernel(const ReadContext& rc, const model::CoreElement& ce, const ReadAttr& a,
                 model::OpenCL& o) {
  const AttrArg* k = a.arg("kernel");
  if (!k)
    return rc.diags.error(o.loc, "'cei::opencl' needs kernel = \"file.cl\" (an OpenCL C kernel) "
                                 "or function = \"ns::f\" (a host function that enqueues the work)");
  if (!a.arg("global_work_size"))
    rc.diags.error(o.loc, "'cei::opencl' needs global_work_size = \"...\" with kernel = \"" +
                              k->text + "\"");
  o.kernel = k->text;
  o.name = a.arg("name") ? a.str("name") : ce.name;
  o.global_work_size = a.str("global_work_size");
  o.local_work_size = a.str("local_work_size");
  o.offset = a.str("offset");
  const fs::path path = fs::path(o.kernel).is_absolute()
                            ? fs::path(o.kernel)
                            : fs::path(rc.header).parent_path() / o.kernel;
  o.kernel_path = path.lexically_normal().string();
  check_kernel_file(rc, a, *k, o);
  check_opencl_types(rc, ce);
  check_expressions(rc, ce, a, {"global_work_size", "local_work_size", "offset", "result_size"});
}

// A C++ name the generated registry can take the address of: `f`, `ns::f`, `::ns::S::f`.
bool qualified_name(const std::string& s) {
  static const std::regex name(R"((::)?[A-Za-z_]\w*(::[A-Za-z_]\w*)*)");
  return std::regex_match(s, name);
}

void read_function(const ReadContext& rc, const model::CoreElement& ce, const ReadAttr& a,
                   const AttrArg& f, model::OpenCL& o) {
  if (const AttrArg* k = a.arg("kernel"))  // which one was meant is anyone's guess
    return rc.diags.error(rc.loc_at(a, k->key_offset),
                          "'cei::opencl' takes kernel = \"...\" or function = \"...\", not both");
  check_opencl_types(rc, ce);
  for (const char* key : {"global_work_size", "local_work_size", "offset", "name"})
    if (const AttrArg* x = a.arg(key))
      rc.diags.error(rc.loc_at(a, x->key_offset),
                     "'" + std::string(key) + "' does not apply to function = \"" + f.text +
                         "\": the function enqueues its own work; remove it");
  if (!qualified_name(f.text))
    rc.diags.error(rc.arg_loc(a, f), "function = \"" + f.text +
                                         "\" is not a function's name: write the qualified name "
                                         "of a C++ function, such as \"blas::gemm\"");
  for (const auto& p : ce.params)
    if (p.type.kind == TypeKind::Scalar && p.direction == model::Direction::InOut)
      rc.diags.error(p.loc, "CE parameter '" + p.name + "' is an inout scalar, which function '" +
                                f.text + "' cannot update: it gets scalar inputs by value (make it "
                                         "'out', or a cei::Vector of one element)");
  o.function = f.text;
  o.function_loc = rc.expr_loc(a, f, 1);
  check_expressions(rc, ce, a, {"result_size"});
}

}  // namespace

std::vector<expr::ParamShape> param_shapes(const model::CoreElement& ce) {
  std::vector<expr::ParamShape> shapes;
  for (const auto& p : ce.params) {
    const bool scalar = p.type.kind == TypeKind::Scalar;
    const bool integral = p.type.element != "float" && p.type.element != "double" &&
                          p.type.element != "long double" && !p.type.element.empty();
    const int rank = p.type.kind == TypeKind::Object ? -1 : p.type.rank;
    shapes.push_back({p.name, scalar, integral, rank});
  }
  return shapes;
}

model::OpenCL read_opencl(const ReadContext& rc, const model::CoreElement& ce, const ReadAttr& a) {
  model::OpenCL o;
  o.result_size = a.str("result_size");
  o.loc = rc.loc(a.raw->loc);
  if (const AttrArg* f = a.arg("function"))
    read_function(rc, ce, a, *f, o);
  else
    read_kernel(rc, ce, a, o);
  return o;
}

}  // namespace cei::frontend
