// Work-size expressions: grammar, checker and evaluator (docs/language.md, "Work-size
// expressions").
#include <gtest/gtest.h>
#include <cei/expr.hpp>

#include <map>

namespace {

using cei::expr::CheckError;
using cei::expr::EvalError;
using cei::expr::ParamShape;
using cei::expr::SyntaxError;

// Actual arguments: scalars, or arrays given by extents and row-major elements.
struct Arg {
  std::int64_t scalar = 0;
  std::vector<std::int64_t> extents;  // empty for a scalar
  std::vector<std::int64_t> data;
};

class TestArgs : public cei::expr::Args {
 public:
  explicit TestArgs(std::vector<Arg> a) : a_(std::move(a)) {}
  std::size_t count() const override { return a_.size(); }
  int rank(std::size_t p) const override { return static_cast<int>(a_[p].extents.size()); }
  std::int64_t scalar(std::size_t p) const override { return a_[p].scalar; }
  std::int64_t extent(std::size_t p, int d) const override { return a_[p].extents[d]; }
  std::int64_t element(std::size_t p, std::span<const std::int64_t> idx) const override {
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) flat = flat * a_[p].extents[d] + idx[d];
    return a_[p].data[flat];
  }

 private:
  std::vector<Arg> a_;
};

Arg scalar(std::int64_t v) {
  return {v, {}, {}};
}
Arg array(std::vector<std::int64_t> extents, std::vector<std::int64_t> data = {}) {
  return {0, std::move(extents), std::move(data)};
}

std::vector<std::int64_t> eval(const std::string& src, std::vector<Arg> args = {}) {
  return cei::expr::evaluate(cei::expr::parse(src), TestArgs(std::move(args)), "f");
}
std::int64_t eval1(const std::string& src, std::vector<Arg> args = {}) {
  auto v = eval(src, std::move(args));
  EXPECT_EQ(v.size(), 1u);
  return v.at(0);
}

template <typename E, typename F>
E expect_throw(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e;
  }
  ADD_FAILURE() << "no exception";
  return E("", 0);
}

std::size_t syntax_column(const std::string& src) {
  return expect_throw<SyntaxError>([&] { cei::expr::parse(src); }).column;
}

std::string eval_error(const std::string& src, std::vector<Arg> args) {
  try {
    eval(src, std::move(args));
  } catch (const EvalError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no EvalError for " << src;
  return {};
}

TEST(ExprEval, Precedence) {
  EXPECT_EQ(eval1("2 + 3 * 4"), 14);
  EXPECT_EQ(eval1("2 * 3 + 4"), 10);
  EXPECT_EQ(eval1("20 - 6 / 3"), 18);
  EXPECT_EQ(eval1("1 + 7 % 4 * 2"), 7);
  EXPECT_EQ(eval1("(2 + 3) * 4"), 20);
}

TEST(ExprEval, LeftAssociative) {
  EXPECT_EQ(eval1("10 - 4 - 3"), 3);
  EXPECT_EQ(eval1("100 / 10 / 5"), 2);
  EXPECT_EQ(eval1("100 % 7 % 3"), 2);
  EXPECT_EQ(eval1("par0 - par1 - par2", {scalar(10), scalar(4), scalar(3)}), 3);
  EXPECT_EQ(eval1("par0 / par1 / par2", {scalar(100), scalar(10), scalar(5)}), 2);
}

TEST(ExprEval, UnaryMinus) {
  EXPECT_EQ(eval1("-3 + 5"), 2);
  EXPECT_EQ(eval1("- -4"), 4);
  EXPECT_EQ(eval1("2 * -3 + 10"), 4);
  EXPECT_EQ(eval1("-(1 - 8)"), 7);
}

TEST(ExprEval, ParenthesesAlone) {
  EXPECT_EQ(eval1("(par0.x)", {array({6})}), 6);
  EXPECT_EQ(eval1("((((7))))"), 7);
}

TEST(ExprEval, ExtentsAndScalars) {
  const std::vector<Arg> args = {array({2, 3, 4}), scalar(5), array({9})};
  EXPECT_EQ(eval("par0.x, par0.y, par0.z", args), (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(eval("(par0.x + par1 - 1) / par1 * par1, par2.x", args),
            (std::vector<std::int64_t>{5, 9}));
}

TEST(ExprEval, Indexing) {
  const std::vector<Arg> args = {array({2, 3}, {1, 2, 3, 4, 5, 6}), array({3}, {7, 8, 9}),
                                 scalar(1)};
  EXPECT_EQ(eval1("par0[1][2]", args), 6);
  EXPECT_EQ(eval1("par0[0][par2 + 1]", args), 3);
  EXPECT_EQ(eval1("par1[par1[0] - 7] * 2", args), 14);
  EXPECT_EQ(eval1("par1[ 2 ]", args), 9);
}

TEST(ExprEval, SixtyFourBits) {
  EXPECT_EQ(eval1("4000000000 * 4"), 16000000000);
  EXPECT_EQ(eval1("9223372036854775807"), INT64_MAX);
}

TEST(ExprEval, ErrorsNameCeExpressionAndValues) {
  EXPECT_EQ(eval_error("par0.x / par1", {array({8}), scalar(0)}),
            "CE 'f': work-size expression 'par0.x / par1': division by zero: 8 / 0 "
            "(in 'par0.x / par1' at column 1)");
  EXPECT_EQ(eval_error("1 + par0 % (par1 - 2)", {scalar(5), scalar(2)}),
            "CE 'f': work-size expression '1 + par0 % (par1 - 2)': modulo by zero: 5 % 0 "
            "(in 'par0 % (par1 - 2)' at column 5)");
  EXPECT_EQ(eval_error("par0[3]", {array({3}, {1, 2, 3})}),
            "CE 'f': work-size expression 'par0[3]': index 3 out of range [0, 3) in dimension 1 "
            "of par0 (in 'par0[3]' at column 1)");
  EXPECT_EQ(eval_error("par0[0][-1]", {array({1, 2}, {1, 2})}),
            "CE 'f': work-size expression 'par0[0][-1]': index -1 out of range [0, 2) in "
            "dimension 2 of par0 (in 'par0[0][-1]' at column 1)");
  EXPECT_EQ(eval_error("4, par0 - 10", {scalar(3)}),
            "CE 'f': work-size expression '4, par0 - 10': negative size -7 for dimension 2 "
            "(in 'par0 - 10' at column 4)");
  EXPECT_EQ(eval_error("par0 * 4", {scalar(INT64_MAX / 2)}),
            "CE 'f': work-size expression 'par0 * 4': 64-bit overflow: 4611686018427387903 * 4 "
            "(in 'par0 * 4' at column 1)");
}

// A significance is a value, not a size: negative values are the caller's to clamp.
TEST(ExprEval, ValueMayBeNegative) {
  EXPECT_EQ(cei::expr::evaluate_value(cei::expr::parse("50 - par0"), TestArgs({scalar(70)}), "f"),
            -20);
}

TEST(ExprEval, ArgumentsThatDoNotFitTheExpression) {
  EXPECT_NE(eval_error("par3", {scalar(1)}).find("par3 does not exist: the call has 1 argument"),
            std::string::npos);
  EXPECT_NE(eval_error("par0.y", {array({4})}).find("par0 has rank 1"), std::string::npos);
}

TEST(ExprParse, KeepsSourceAndDimensions) {
  auto e = cei::expr::parse(" par0.x ,par1.y");
  EXPECT_EQ(e.source, " par0.x ,par1.y");
  EXPECT_EQ(e.dims.size(), 2u);
}

TEST(ExprParse, SyntaxErrorsCarryTheColumn) {
  EXPECT_EQ(syntax_column(""), 1u);
  EXPECT_EQ(syntax_column("par0.x +"), 9u);
  EXPECT_EQ(syntax_column("(par0.x"), 8u);
  EXPECT_EQ(syntax_column("par0.w"), 6u);
  EXPECT_EQ(syntax_column("par0.xy"), 6u);
  EXPECT_EQ(syntax_column("1, 2, 3, 4"), 10u);
  EXPECT_EQ(syntax_column("foo + 1"), 1u);
  EXPECT_EQ(syntax_column("2 3"), 3u);
  EXPECT_EQ(syntax_column("par0[1"), 7u);
  EXPECT_EQ(syntax_column("1,,2"), 3u);
  EXPECT_EQ(syntax_column("12a"), 1u);
  EXPECT_EQ(syntax_column("99999999999999999999"), 1u);
  EXPECT_EQ(syntax_column("par0 & 1"), 6u);
}

TEST(ExprParse, SyntaxErrorMessages) {
  auto msg = [](const std::string& s) {
    return std::string(expect_throw<SyntaxError>([&] { cei::expr::parse(s); }).what());
  };
  EXPECT_EQ(msg("par0.x +"), "expected an expression, found the end of the expression");
  EXPECT_EQ(msg("1, 2, 3, 4"), "more than 3 dimensions: a work size has 1 to 3 expressions");
  EXPECT_EQ(msg("size + 1"), "unknown name 'size': expected parN (N-th parameter)");
  EXPECT_EQ(msg("(1"), "expected ')', found the end of the expression");
  EXPECT_EQ(msg("1 ) "), "expected an operator, ',' or the end, found ')'");
}

// Found by fuzzing: thousands of '-' overflowed the checker's stack. Depth is capped at 100 levels
// (unary minus, parentheses, subscripts and operator chains alike); 100 still parses.
TEST(ExprParse, NestingIsCappedAtAHundredLevels) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  const std::string too_deep = "the expression nests deeper than 100 levels";
  EXPECT_NO_THROW(cei::expr::parse(repeat("-", 99) + "1"));
  EXPECT_NO_THROW(cei::expr::parse(repeat("(", 99) + "1" + repeat(")", 99)));
  EXPECT_NO_THROW(cei::expr::parse("1" + repeat("+1", 99)));
  for (const std::string& src :
       {repeat("-", 5000) + "2", repeat("(", 101) + "1" + repeat(")", 101), "1" + repeat("+1", 100),
        "par0" + repeat("[par0", 101) + repeat("]", 101)}) {
    auto err = expect_throw<SyntaxError>([&] { cei::expr::parse(src); });
    EXPECT_EQ(std::string(err.what()), too_deep) << src.substr(0, 40);
  }
}

const std::vector<ParamShape> kShapes = {
    {"A", false, true, 2},    // par0: 2-D int array
    {"n", true, true, 0},     // par1: integer scalar
    {"v", false, false, 1},   // par2: 1-D float vector
    {"s", false, false, -1},  // par3: object
    {"x", true, false, 0},    // par4: double scalar
};

std::string check_error(const std::string& src, std::size_t expected_column) {
  auto e = cei::expr::parse(src);
  auto err = expect_throw<CheckError>([&] { cei::expr::check(e, kShapes); });
  EXPECT_EQ(err.column, expected_column) << src;
  return err.what();
}

TEST(ExprCheck, AcceptsWellFormedUses) {
  for (const char* ok : {"par0.x, par0.y", "par1 * 2", "par2.x", "par0[0][par1]", "-par1"})
    EXPECT_NO_THROW(cei::expr::check(cei::expr::parse(ok), kShapes)) << ok;
}

TEST(ExprCheck, Errors) {
  EXPECT_EQ(check_error("par0.x, par7", 9), "unknown parameter 'par7': the CE has par0..par4");
  EXPECT_EQ(check_error("par2.y", 1), "par2 ('v') is 1-D: it has no '.y'");
  EXPECT_EQ(check_error("par0.z", 1), "par0 ('A') is 2-D: it has no '.z'");
  EXPECT_EQ(check_error("1 + par1.x", 5), "'.x' of par1 ('n'), which is a scalar");
  EXPECT_EQ(check_error("par1[0]", 1), "cannot index par1 ('n'), which is a scalar");
  EXPECT_EQ(check_error("par0[1]", 1), "par0 ('A') is 2-D but has 1 subscript(s)");
  EXPECT_EQ(check_error("par2[1]", 1), "the elements of par2 ('v') are not integers");
  EXPECT_EQ(check_error("par0 + 1", 1),
            "par0 ('A') is a 2-D value, not a scalar; use .x/.y/.z or [i]");
  EXPECT_EQ(check_error("par4", 1), "par4 ('x') is not an integer");
  EXPECT_EQ(check_error("2 * par3.x", 5),
            "'.x' of par3 ('s'), which is an object (objects cannot be used in work-size "
            "expressions)");
  EXPECT_EQ(check_error("par3", 1),
            "par3 ('s') is an object (objects cannot be used in work-size expressions)");
  auto e = cei::expr::parse("par0");
  EXPECT_THROW(cei::expr::check(e, {}), CheckError);
  const std::vector<ParamShape> pointer = {{"p", false, false, 0}};  // a type the CE cannot take
  try {
    cei::expr::check(e, pointer);
    ADD_FAILURE() << "no CheckError";
  } catch (const CheckError& err) {
    EXPECT_STREQ(err.what(), "par0 ('p') is of a type work-size expressions cannot use");
  }
}

}  // namespace

namespace {

// Any input either parses or fails with a column inside it (or just past its end); a parsed one
// evaluates or fails with an EvalError, never anything else.
TEST(ExprParse, RandomInputParsesOrFailsInside) {
  const std::vector<std::string> tokens = {"par0", "par1", "par2", ".x", ".y", ".z", "[",
                                           "]",    "(",    ")",    "+",  "-",  "*",  "/",
                                           "%",    ",",    " ",    "1",  "0",  "2"};
  const TestArgs args({array({3, 4}, std::vector<std::int64_t>(12, 2)), scalar(0)});
  std::uint32_t seed = 777;
  int parsed = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const int len = 1 + static_cast<int>(seed % 8);
    for (int i = 0; i < len; ++i) {
      seed = seed * 1664525u + 1013904223u;
      text += tokens[(seed >> 16) % tokens.size()];
    }
    seed = seed * 1664525u + 1013904223u;
    try {
      const auto e = cei::expr::parse(text);
      ++parsed;
      ASSERT_GE(e.dims.size(), 1u);
      ASSERT_LE(e.dims.size(), 3u);
      try {
        cei::expr::evaluate(e, args, "fuzz");
      } catch (const EvalError&) {
      }
    } catch (const SyntaxError& err) {
      ASSERT_GE(err.column, 1u) << text;
      ASSERT_LE(err.column, text.size() + 1) << text;
    }
  }
  EXPECT_GT(parsed, 20);  // the tokens do form valid expressions
}

// ---- Conditions ([[cei::requires]]) ----

cei::expr::Verdict verdict(const std::string& src, std::vector<Arg> args = {}) {
  return cei::expr::evaluate_condition(cei::expr::parse_condition(src), TestArgs(std::move(args)),
                                       "f");
}

std::string condition_syntax(const std::string& src) {
  const auto e = expect_throw<SyntaxError>([&] { cei::expr::parse_condition(src); });
  return std::to_string(e.column) + ": " + e.what();
}

TEST(ExprCondition, ComparisonsAndLogic) {
  const std::vector<Arg> args = {array({2, 3}), array({3, 20000}), scalar(0)};
  EXPECT_TRUE(verdict("par0.y == par1.x", args).holds);
  EXPECT_FALSE(verdict("par0.x == par1.y", args).holds);
  EXPECT_TRUE(verdict("par0.x != par0.y && par0.x < par0.y && par0.y <= 3", args).holds);
  EXPECT_TRUE(verdict("par1.y >= 20000 && par1.y > 19999", args).holds);
  EXPECT_TRUE(verdict("par2 == 1 || par0.x * par0.y == 6", args).holds);
  EXPECT_TRUE(verdict("!(par2 == 1)", args).holds);
  EXPECT_FALSE(verdict("!!(par2 == 1)", args).holds);
  EXPECT_TRUE(verdict("(par0.x + 1) * 2 == 6 && (par2 == 0 || par2 == 1)", args).holds);
  // && binds tighter than ||, as in C.
  EXPECT_TRUE(verdict("1 == 1 || 1 == 2 && 1 == 2").holds);
}

TEST(ExprCondition, ValuesReadNameTheDimensionsOnce) {
  const auto v = verdict("par0.y == par1.x && par0.y > 0", {array({20000, 1}), array({2})});
  EXPECT_FALSE(v.holds);
  EXPECT_EQ(v.values, "par0.y = 1, par1.x = 2");
}

TEST(ExprCondition, ShortCircuitSkipsTheRightSide) {
  const std::vector<Arg> args = {array({8}), scalar(0)};
  EXPECT_TRUE(verdict("par1 == 0 || par0.x / par1 > 2", args).holds);
  EXPECT_FALSE(verdict("par1 != 0 && par0.x / par1 > 2", args).holds);
  EXPECT_EQ(verdict("par1 != 0 && par0.x / par1 > 2", args).values, "par1 = 0");
  EXPECT_THROW(verdict("par0.x / par1 > 2", args), EvalError);
}

TEST(ExprCondition, NumbersAndConditionsDoNotMix) {
  EXPECT_EQ(condition_syntax("par0.x"),
            "1: 'par0.x' is a number, but a requirement takes a condition: compare it, e.g. "
            "'par0.x > 0'");
  EXPECT_EQ(condition_syntax("(par0.x > 1) + 1 > 0"),
            "1: '(par0.x > 1)' is a condition, not a number: it cannot be computed with");
  EXPECT_EQ(condition_syntax("par0.x > 1 && par1"),
            "15: 'par1' is a number, but '&&' takes a condition: compare it, e.g. 'par1 > 0'");
  EXPECT_EQ(condition_syntax("!par0.x"),
            "2: 'par0.x' is a number, but '!' takes a condition: compare it, e.g. 'par0.x > 0'");
  EXPECT_EQ(condition_syntax("par0[par1 == 1] > 0"), "11: expected ']', found '='");
}

TEST(ExprCondition, SyntaxErrorsPointAtTheMistake) {
  EXPECT_EQ(condition_syntax("par0.x = 3"), "8: '=' assigns: compare with '=='");
  EXPECT_EQ(condition_syntax("par0.x > 1 & par1 > 0"), "12: expected '&&' or '||'");
  EXPECT_EQ(condition_syntax("0 < par0.x < 9"),
            "1: comparisons do not chain: write 'a < b && b < c'");
  EXPECT_EQ(condition_syntax("par0.x > 1, par1 > 0"),
            "11: expected an operator or the end, found ','");
  EXPECT_EQ(condition_syntax("par0.x >"),
            "9: expected an expression, found the end of the expression");
  EXPECT_EQ(condition_syntax("(par0.x > 1"), "12: expected ')', found the end of the expression");
}

TEST(ExprCondition, WorkSizesStayNumbers) {
  EXPECT_EQ(syntax_column("par0.x == 1"), 8u);
  EXPECT_EQ(syntax_column("(par0.x > 1)"), 9u);
}

TEST(ExprCondition, CheckedAsWorkSizes) {
  const std::vector<ParamShape> shapes = {{"v", false, true, 1}, {"n", true, true, 0}};
  const auto e = cei::expr::parse_condition("par0.x > 0 && par2 == 1");
  EXPECT_EQ(expect_throw<CheckError>([&] { cei::expr::check(e, shapes); }).column, 15u);
  const auto uses = cei::expr::params_used(cei::expr::parse_condition("par1 > 0 || par0[0] > 1"));
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_EQ(uses[0].par, 1u);
  EXPECT_EQ(uses[1].par, 0u);
  EXPECT_EQ(uses[1].column, 13u);
}

}  // namespace
