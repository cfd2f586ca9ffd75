// Build-time checks of a work-size expression or condition against the CE's parameter shapes.
#include <string>

#include "expr_ast.hpp"

namespace cei::expr {
namespace {

std::string describe(const ParamShape& p, std::size_t index) {
  std::string s = "par" + std::to_string(index);
  if (!p.name.empty()) s += " ('" + p.name + "')";
  return s;
}

class Checker {
 public:
  explicit Checker(std::span<const ParamShape> params) : params_(params) {}

  void visit(const Node& n) {
    for (const auto& k : n.kids) visit(*k);
    switch (n.kind) {
      case Node::Kind::Int:
      case Node::Kind::Neg:
      case Node::Kind::Binary:
      case Node::Kind::Compare:
      case Node::Kind::Logic:
      case Node::Kind::Not:
        return;
      case Node::Kind::Param: {
        const ParamShape& p = param(n);
        if (!p.is_scalar && p.rank <= 0) fail(n, describe(p, n.par) + " is " + what(p));
        if (!p.is_scalar)
          fail(n, describe(p, n.par) + " is " + what(p) + ", not a scalar; use .x/.y/.z or [i]");
        if (!p.is_integral) fail(n, describe(p, n.par) + " is not an integer");
        return;
      }
      case Node::Kind::Extent: {
        const ParamShape& p = param(n);
        const char d = static_cast<char>('x' + n.dim);
        if (p.rank <= 0)
          fail(n,
               "'." + std::string(1, d) + "' of " + describe(p, n.par) + ", which is " + what(p));
        if (n.dim >= p.rank)
          fail(n, describe(p, n.par) + " is " + std::to_string(p.rank) + "-D: it has no '." +
                      std::string(1, d) + "'");
        return;
      }
      case Node::Kind::Index: {
        const ParamShape& p = param(n);
        if (p.rank <= 0) fail(n, "cannot index " + describe(p, n.par) + ", which is " + what(p));
        if (static_cast<int>(n.kids.size()) != p.rank)
          fail(n, describe(p, n.par) + " is " + std::to_string(p.rank) + "-D but has " +
                      std::to_string(n.kids.size()) + " subscript(s)");
        if (!p.is_integral) fail(n, "the elements of " + describe(p, n.par) + " are not integers");
        return;
      }
    }
  }

 private:
  const ParamShape& param(const Node& n) const {
    if (n.par >= params_.size()) {
      std::string known = params_.empty()
                              ? std::string("the CE has no parameters")
                              : "the CE has par0..par" + std::to_string(params_.size() - 1);
      fail(n, "unknown parameter 'par" + std::to_string(n.par) + "': " + known);
    }
    return params_[n.par];
  }

  static std::string what(const ParamShape& p) {
    if (p.rank < 0) return "an object (objects cannot be used in work-size expressions)";
    if (p.rank == 0 && !p.is_scalar) return "of a type work-size expressions cannot use";
    if (p.rank == 0) return "a scalar";
    return "a " + std::to_string(p.rank) + "-D value";
  }

  [[noreturn]] static void fail(const Node& n, const std::string& msg) {
    throw CheckError(msg, n.begin);
  }

  std::span<const ParamShape> params_;
};

}  // namespace

void check(const ExprList& e, std::span<const ParamShape> params) {
  Checker c(params);
  for (const auto& d : e.dims) c.visit(*d);
}

namespace {
void collect_uses(const Node& n, std::vector<ParamUse>& out) {
  if (n.kind == Node::Kind::Param || n.kind == Node::Kind::Extent || n.kind == Node::Kind::Index)
    out.push_back({n.par, n.begin});
  for (const auto& k : n.kids) collect_uses(*k, out);
}
}  // namespace

std::vector<ParamUse> params_used(const ExprList& e) {
  std::vector<ParamUse> out;
  for (const auto& d : e.dims) collect_uses(*d, out);
  return out;
}

}  // namespace cei::expr
