#include "requires_reader.hpp"

#include <cei/expr.hpp>

#include "opencl_reader.hpp"

namespace cei::frontend {

void read_requires(const ReadContext& rc, model::CoreElement& ce, const ReadAttr& a) {
  const AttrArg* arg = a.arg("expr");
  if (!arg) return;  // reported by validate_attrs()
  const auto fail = [&](std::size_t column, const std::string& what) {
    rc.diags.error(
        rc.expr_loc(a, *arg, column),
        "requires: " + what + " (column " + std::to_string(column) + " of \"" + arg->text + "\")");
  };
  expr::ExprList e;
  try {
    e = expr::parse_condition(arg->text);
    expr::check(e, param_shapes(ce));
  } catch (const expr::Error& err) {
    return fail(err.column, err.what());
  }
  // Evaluated before the task runs, on the caller's arguments: an out parameter has none yet.
  for (const expr::ParamUse& use : expr::params_used(e)) {
    const model::Param& p = ce.params[use.par];
    if (p.direction == model::Direction::Out)
      return fail(use.column, "par" + std::to_string(use.par) + " ('" + p.name +
                                  "') is an out parameter: it has no value before the call");
  }
  ce.requirements.push_back(arg->text);
}

}  // namespace cei::frontend
