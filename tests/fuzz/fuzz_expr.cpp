// Work-size expressions and [[cei::requires]] conditions: parse, then check against a fixed set of
// parameter shapes, then evaluate on synthetic arguments of those shapes. Only the documented
// errors may come out; anything else (another exception, a crash, an element read out of range)
// is a finding.
#include <cei/expr.hpp>

#include <array>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

using cei::expr::ParamShape;

// par0 int, par1 1-D, par2 2-D, par3 3-D, par4 double, par5 object.
const std::array<ParamShape, 6> kShapes{{{"n", true, true, 0},
                                         {"v", false, true, 1},
                                         {"m", false, true, 2},
                                         {"c", false, true, 3},
                                         {"d", true, false, 0},
                                         {"o", false, false, -1}}};

// Arguments of kShapes but the object, which has no value an expression can read (the
// checker refuses it): extents 3, 4, 5 and element values that depend on the index.
class SyntheticArgs : public cei::expr::Args {
 public:
  std::size_t count() const override { return kShapes.size() - 1; }
  int rank(std::size_t par) const override {
    FUZZ_CHECK(par < count(), "rank() of a parameter that does not exist");
    return kShapes[par].rank;
  }
  std::int64_t scalar(std::size_t par) const override {
    FUZZ_CHECK(par < count() && kShapes[par].rank == 0, "scalar() of a non-scalar");
    return par == 0 ? 7 : 2;
  }
  std::int64_t extent(std::size_t par, int dim) const override {
    FUZZ_CHECK(par < count() && dim >= 0 && dim < kShapes[par].rank, "extent() past the rank");
    return 3 + dim;
  }
  std::int64_t element(std::size_t par, std::span<const std::int64_t> index) const override {
    FUZZ_CHECK(par < count() && static_cast<int>(index.size()) == kShapes[par].rank,
               "element() with the wrong number of subscripts");
    std::int64_t v = 0;
    for (std::size_t d = 0; d < index.size(); ++d) {
      FUZZ_CHECK(index[d] >= 0 && index[d] < 3 + static_cast<std::int64_t>(d),
                 "element() with an index out of range");
      v = v * 10 + index[d];
    }
    return v - 5;  // negative values too, so negative sizes and indices are reachable
  }
};

// The same text as a condition: one node; only the documented errors.
void fuzz_condition(std::string_view text) {
  cei::expr::ExprList cond;
  try {
    cond = cei::expr::parse_condition(text);
  } catch (const cei::expr::SyntaxError& e) {
    FUZZ_CHECK(e.column >= 1 && e.column <= text.size() + 1,
               "syntax error column outside the text");
    return;
  }
  FUZZ_CHECK(cond.dims.size() == 1, "a condition is one expression");
  SyntheticArgs args;
  try {
    cei::expr::check(cond, kShapes);
    const cei::expr::Verdict v = cei::expr::evaluate_condition(cond, args, "fuzz");
    FUZZ_CHECK(v.values.empty() || v.values.find(" = ") != std::string::npos,
               "values not written as 'parN... = value'");
  } catch (const cei::expr::CheckError& e) {
    FUZZ_CHECK(e.column >= 1 && e.column <= text.size() + 1, "check error column outside the text");
  } catch (const cei::expr::EvalError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz_condition(text);
  cei::expr::ExprList list;
  try {
    list = cei::expr::parse(text);
  } catch (const cei::expr::SyntaxError& e) {
    FUZZ_CHECK(e.column >= 1 && e.column <= size + 1, "syntax error column outside the text");
    return 0;
  }
  FUZZ_CHECK(!list.dims.empty() && list.dims.size() <= 3, "not 1 to 3 dimensions");
  FUZZ_CHECK(list.source == text, "source not kept verbatim");
  SyntheticArgs args;
  try {
    cei::expr::check(list, kShapes);
  } catch (const cei::expr::CheckError& e) {
    FUZZ_CHECK(e.column >= 1 && e.column <= size + 1, "check error column outside the text");
    // The evaluator must also refuse what the checker refused, without crashing.
    try {
      cei::expr::evaluate(list, args, "fuzz");
    } catch (const cei::expr::EvalError&) {
    }
    return 0;
  }
  try {
    auto dims = cei::expr::evaluate(list, args, "fuzz");
    FUZZ_CHECK(dims.size() == list.dims.size(), "one value per dimension");
    for (auto d : dims) FUZZ_CHECK(d >= 0, "a negative size escaped");
  } catch (const cei::expr::EvalError& e) {
    FUZZ_CHECK(std::string_view(e.what()).find("fuzz") != std::string_view::npos,
               "run-time error does not name the CE");
  }
  return 0;
}
