#include "significance_reader.hpp"

#include <cei/expr.hpp>

#include "opencl_reader.hpp"

namespace cei::frontend {
namespace {

// A constant expression reads no parameter: evaluating it asks for none.
class NoArgs : public expr::Args {
 public:
  std::size_t count() const override { return 0; }
  int rank(std::size_t) const override { return 0; }
  std::int64_t scalar(std::size_t) const override { return 0; }
  std::int64_t extent(std::size_t, int) const override { return 0; }
  std::int64_t element(std::size_t, std::span<const std::int64_t>) const override { return 0; }
};

void check_expression(const ReadContext& rc, const model::CoreElement& ce, const ReadAttr& a,
                      const AttrArg& arg) {
  expr::ExprList e;
  try {
    e = expr::parse(arg.text);
    expr::check(e, param_shapes(ce));
  } catch (const expr::Error& err) {
    return rc.diags.error(rc.expr_loc(a, arg, err.column),
                          std::string("significance: ") + err.what() + " (column " +
                              std::to_string(err.column) + " of \"" + arg.text + "\")");
  }
  if (e.dims.size() != 1)
    return rc.diags.error(rc.arg_loc(a, arg), "significance has " + std::to_string(e.dims.size()) +
                                                  " values; it is one expression, 0 to 100");
  if (arg.text.find("par") != std::string::npos) return;  // known when a task is created
  try {
    const std::int64_t v = expr::evaluate(e, NoArgs{}, ce.name)[0];
    if (v < 0 || v > 100)
      rc.diags.error(rc.arg_loc(a, arg), "significance " + std::to_string(v) + " of CE '" +
                                             ce.name + "' is out of range: it is 0 to 100");
  } catch (const expr::EvalError& err) {
    rc.diags.error(rc.arg_loc(a, arg), std::string("significance: ") + err.what());
  }
}

}  // namespace

void read_significance(const ReadContext& rc, model::CoreElement& ce, const ReadAttr& a) {
  const AttrArg* arg = a.arg("expr");
  if (!arg) return;  // reported by validate_attrs()
  check_expression(rc, ce, a, *arg);
  ce.significance = arg->text;
  const AttrArg* drop = a.arg("droppable");
  if (!drop || drop->integer == 0) return;
  // Dropped, the task leaves its outputs as they were: an inout keeps its value, but an out
  // parameter or a result has none to keep, and what the program then read would be garbage.
  std::string written, fix = "remove 'droppable'";
  for (const auto& p : ce.params)
    if (p.direction == model::Direction::Out) {
      written = "the out parameter '" + p.name + "'";
      fix = "make it [[cei::inout]] (a dropped task leaves it as it was) or remove 'droppable'";
    }
  if (written.empty() && ce.result.kind != model::TypeKind::Void)
    written = "a result ('" + ce.result.spelling + "')";
  if (!written.empty())
    return rc.diags.error(rc.arg_loc(a, *drop), "CE '" + ce.name +
                                                    "' cannot be droppable: it has " + written +
                                                    ", which a dropped task would leave without "
                                                    "a value; " +
                                                    fix);
  ce.droppable = true;
}

}  // namespace cei::frontend
