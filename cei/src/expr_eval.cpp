// Run-time evaluation of work-size expressions and conditions over the actual arguments of a task.
#include <algorithm>
#include <string>
#include <utility>

#include "expr_ast.hpp"

namespace cei::expr {
namespace {

class Evaluator {
 public:
  using Reads = std::vector<std::pair<std::string, std::int64_t>>;
  // `reads`, when given, collects what the parameters gave (Verdict::values).
  Evaluator(const ExprList& e, const Args& args, std::string_view ce, Reads* reads = nullptr)
      : e_(e), args_(args), ce_(ce), reads_(reads) {}

  std::int64_t eval(const Node& n) const {
    switch (n.kind) {
      case Node::Kind::Int:
        return n.value;
      case Node::Kind::Neg: {
        const std::int64_t v = eval(*n.kids[0]);
        std::int64_t r;
        if (__builtin_sub_overflow(std::int64_t{0}, v, &r))
          fail(n, "64-bit overflow negating " + std::to_string(v));
        return r;
      }
      case Node::Kind::Binary:
      case Node::Kind::Compare: {
        // Left first (an argument list's order is unspecified): Verdict::values in text order.
        const std::int64_t a = eval(*n.kids[0]);
        const std::int64_t b = eval(*n.kids[1]);
        return n.kind == Node::Kind::Binary ? binary(n, a, b) : compare(n.op, a, b);
      }
      case Node::Kind::Logic: {  // the right side only when needed: "par1 != 0 && par0 / par1"
        const bool left = eval(*n.kids[0]) != 0;
        if (left == (n.op == '|')) return left;
        return eval(*n.kids[1]) != 0;
      }
      case Node::Kind::Not:
        return eval(*n.kids[0]) == 0;
      case Node::Kind::Param:
        require(n, 0);
        return read(n, args_.scalar(n.par));
      case Node::Kind::Extent:
        require(n, n.dim + 1);
        return read(n, args_.extent(n.par, n.dim));
      case Node::Kind::Index: {
        require(n, static_cast<int>(n.kids.size()));
        if (args_.rank(n.par) != static_cast<int>(n.kids.size()))
          fail(n, "par" + std::to_string(n.par) + " has rank " + std::to_string(args_.rank(n.par)) +
                      " but " + std::to_string(n.kids.size()) + " subscript(s)");
        std::vector<std::int64_t> index;
        for (std::size_t d = 0; d < n.kids.size(); ++d) {
          const std::int64_t i = eval(*n.kids[d]);
          const std::int64_t extent = args_.extent(n.par, static_cast<int>(d));
          if (i < 0 || i >= extent)
            fail(n, "index " + std::to_string(i) + " out of range [0, " + std::to_string(extent) +
                        ") in dimension " + std::to_string(d + 1) + " of par" +
                        std::to_string(n.par));
          index.push_back(i);
        }
        return read(n, args_.element(n.par, index));
      }
    }
    return 0;
  }

  // "CE 'f': work-size expression 'par0.x / par1': division by zero: 8 / 0 (in 'par0.x / par1' at
  // column 1)": the CE, the whole expression, the values and the part at fault.
  std::string message(const std::string& part, std::size_t column, const std::string& what) const {
    return "CE '" + std::string(ce_) + "': work-size expression '" + e_.source + "': " + what +
           " (in '" + part + "' at column " + std::to_string(column) + ")";
  }

 private:
  std::int64_t read(const Node& n, std::int64_t v) const {
    if (!reads_) return v;
    std::string text = text_of(e_.source, n);
    if (std::none_of(reads_->begin(), reads_->end(),
                     [&](const auto& r) { return r.first == text; }))
      reads_->emplace_back(std::move(text), v);
    return v;
  }

  static bool compare(char op, std::int64_t a, std::int64_t b) {
    switch (op) {
      case '=':
        return a == b;
      case '!':
        return a != b;
      case '<':
        return a < b;
      case 'L':
        return a <= b;
      case '>':
        return a > b;
      case 'G':
        return a >= b;
    }
    return false;
  }

  std::int64_t binary(const Node& n, std::int64_t a, std::int64_t b) const {
    const std::string values = std::to_string(a) + " " + n.op + " " + std::to_string(b);
    std::int64_t r = 0;
    bool overflow = false;
    switch (n.op) {
      case '+':
        overflow = __builtin_add_overflow(a, b, &r);
        break;
      case '-':
        overflow = __builtin_sub_overflow(a, b, &r);
        break;
      case '*':
        overflow = __builtin_mul_overflow(a, b, &r);
        break;
      case '/':
      case '%':
        if (b == 0)
          fail(n, std::string(n.op == '/' ? "division" : "modulo") + " by zero: " + values);
        overflow = a == INT64_MIN && b == -1;
        if (!overflow) r = n.op == '/' ? a / b : a % b;
        break;
    }
    if (overflow) fail(n, "64-bit overflow: " + values);
    return r;
  }

  // The checker guards this at build time; a runtime caller may still hand mismatched arguments.
  void require(const Node& n, int rank) const {
    if (n.par >= args_.count())
      fail(n, "par" + std::to_string(n.par) + " does not exist: the call has " +
                  std::to_string(args_.count()) + " argument(s)");
    const int actual = args_.rank(n.par);
    if ((rank == 0) != (actual == 0) || actual < rank)
      fail(n, "par" + std::to_string(n.par) + " has rank " + std::to_string(actual));
  }

  [[noreturn]] void fail(const Node& n, const std::string& what) const {
    throw EvalError(message(text_of(e_.source, n), n.begin, what));
  }

  const ExprList& e_;
  const Args& args_;
  std::string_view ce_;
  Reads* reads_;
};

}  // namespace

std::vector<std::int64_t> evaluate(const ExprList& e, const Args& args, std::string_view ce_name) {
  Evaluator ev(e, args, ce_name);
  std::vector<std::int64_t> out;
  for (const auto& d : e.dims) {
    const std::int64_t v = ev.eval(*d);
    if (v < 0)
      throw EvalError(ev.message(text_of(e.source, *d), d->begin,
                                 "negative size " + std::to_string(v) + " for dimension " +
                                     std::to_string(out.size() + 1)));
    out.push_back(v);
  }
  return out;
}

std::int64_t evaluate_value(const ExprList& e, const Args& args, std::string_view ce_name) {
  return Evaluator(e, args, ce_name).eval(*e.dims.at(0));
}

Verdict evaluate_condition(const ExprList& e, const Args& args, std::string_view ce_name) {
  Evaluator::Reads reads;
  Verdict v;
  v.holds = Evaluator(e, args, ce_name, &reads).eval(*e.dims.at(0)) != 0;
  for (const auto& [text, value] : reads)
    v.values += (v.values.empty() ? "" : ", ") + text + " = " + std::to_string(value);
  return v;
}

}  // namespace cei::expr
