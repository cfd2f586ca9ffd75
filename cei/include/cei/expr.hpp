// Work-size expressions (docs/language.md, "Work-size expressions"): "par0.x, par1.y", "(par0.x +
// 15) / 16 * 16".
//
//   auto e = cei::expr::parse("par0.x, par1.y");           // throws SyntaxError{column}
//   cei::expr::check(e, shapes);                            // build time: unknown parN, .y on 1-D
//   std::vector<std::int64_t> gws = cei::expr::evaluate(e, args, "multiply");  // run time
//
// Conditions ([[cei::requires]]) add comparisons, && || ! over the same numbers:
//   auto c = cei::expr::parse_condition("par0.y == par1.x");  // one condition, no list
//   cei::expr::Verdict v = cei::expr::evaluate_condition(c, args, "multiply");
//   if (!v.holds) std::cerr << v.values;                     // "par0.y = 1, par1.x = 20000"
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cei::expr {

struct Node;  // the AST, defined in the implementation

// A parsed list of 1 to 3 expressions.
struct ExprList {
  std::string source;
  std::vector<std::shared_ptr<const Node>> dims;
};

// Errors carry a 1-based column within the expression string.
struct Error : std::runtime_error {
  Error(std::string msg, std::size_t column) : std::runtime_error(std::move(msg)), column(column) {}
  std::size_t column;
};
struct SyntaxError : Error {
  using Error::Error;
};
struct CheckError : Error {
  using Error::Error;
};
// Run time: names the CE, the expression and the values involved.
struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

ExprList parse(std::string_view source);
// One condition (dims has one node, a comparison, '!', '&&' or '||'): a number at the top, or
// a number and a condition mixed, is a SyntaxError.
ExprList parse_condition(std::string_view source);

// What the checker knows of each parameter (the callee not counted).
struct ParamShape {
  std::string name;
  bool is_scalar;  // arithmetic scalar: parN is its value
  bool is_integral;
  int rank;  // arrays: 1..3; vectors/strings: 1; scalars: 0; objects: -1 (unusable)
};
void check(const ExprList& e, std::span<const ParamShape> params);

// Where each parameter is read (parN, parN.x, parN[i]), in the order of the text.
struct ParamUse {
  std::size_t par;
  std::size_t column;
};
std::vector<ParamUse> params_used(const ExprList& e);

// What the evaluator reads of the actual arguments.
class Args {
 public:
  virtual ~Args() = default;
  virtual std::size_t count() const = 0;
  virtual int rank(std::size_t par) const = 0;  // 0 for scalars
  virtual std::int64_t scalar(std::size_t par) const = 0;
  virtual std::int64_t extent(std::size_t par, int dim) const = 0;
  virtual std::int64_t element(std::size_t par, std::span<const std::int64_t> index) const = 0;
};
std::vector<std::int64_t> evaluate(const ExprList& e, const Args& args, std::string_view ce_name);
// The first expression's value, negative or not (a significance, not a size).
std::int64_t evaluate_value(const ExprList& e, const Args& args, std::string_view ce_name);

// A condition's value and, for the message of a broken one, what it read: "par0.y = 1, par1.x =
// 20000" (each parameter, extent or element once, in the order of the text; && and || read
// their right side only when the left does not decide).
struct Verdict {
  bool holds = false;
  std::string values;
};
Verdict evaluate_condition(const ExprList& e, const Args& args, std::string_view ce_name);

}  // namespace cei::expr
