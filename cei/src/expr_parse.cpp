// Recursive-descent parser for the work-size grammar of docs/language.md:
//   list  := expr (',' expr)*            (1 to 3 of them)
//   expr  := term (('+'|'-') term)*
//   term  := unary (('*'|'/'|'%') unary)*
//   unary := '-' unary | atom
//   atom  := INT | '(' expr ')' | parN | parN.x | parN.y | parN.z | parN '[' expr ']' ('[' expr
//   ']')*
// and, for the conditions of [[cei::requires]], above it (a parenthesis there holds an `or`):
//   or    := and ('||' and)*
//   and   := not ('&&' not)*
//   not   := '!' not | cmp
//   cmp   := expr (('=='|'!='|'<'|'<='|'>'|'>=') expr)?
// Numbers and conditions do not mix: arithmetic on a comparison, '!' or '&&' on a number, a
// chain 'a < b < c' and a condition that is a number are syntax errors at the operand's column.
#include <algorithm>
#include <cctype>
#include <limits>
#include <string>

#include "expr_ast.hpp"

namespace cei::expr {
namespace {

using NodePtr = std::shared_ptr<const Node>;

class Parser {
 public:
  Parser(std::string_view src, bool conditions) : src_(src), conditions_(conditions) {}

  // Far beyond any real work size; keeps the recursion of this parser and of every later pass
  // over the tree (checker, evaluator) within a small stack, whatever the input.
  static constexpr int kMaxDepth = 100;

  ExprList list() {
    ExprList out{std::string(src_), {}};
    for (;;) {
      skip_space();
      if (out.dims.size() == 3)
        throw SyntaxError("more than 3 dimensions: a work size has 1 to 3 expressions", column());
      out.dims.push_back(expr());
      skip_space();
      if (at_end()) return out;
      if (peek() != ',') fail_expected("an operator, ',' or the end");
      ++pos_;
    }
  }

  ExprList condition() {
    NodePtr n = logic_or();
    skip_space();
    if (!at_end()) {
      if (peek() == '=' && !next_is('=')) fail_at("'=' assigns: compare with '=='");
      if ((peek() == '&' && !next_is('&')) || (peek() == '|' && !next_is('|')))
        fail_at("expected '&&' or '||'");
      fail_expected("an operator or the end");
    }
    return {std::string(src_), {must_be_condition(n, "a requirement")}};
  }

 private:
  NodePtr logic_or() {
    NodePtr left = logic_and();
    while (skip_space(), !at_end() && peek() == '|' && next_is('|'))
      left = logic(left, &Parser::logic_and);
    return left;
  }

  NodePtr logic_and() {
    NodePtr left = negation();
    while (skip_space(), !at_end() && peek() == '&' && next_is('&'))
      left = logic(left, &Parser::negation);
    return left;
  }

  NodePtr logic(const NodePtr& left, NodePtr (Parser::*operand)()) {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Logic;
    n->op = src_[pos_];
    const std::string name = n->op == '&' ? "'&&'" : "'||'";
    pos_ += 2;
    NodePtr right = (this->*operand)();
    n->kids = {must_be_condition(left, name), must_be_condition(right, name)};
    n->begin = left->begin;
    n->end = right->end;
    return deepen(n, std::max(left->depth, right->depth));
  }

  NodePtr negation() {
    skip_space();
    if (at_end() || peek() != '!') return comparison();
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Not;
    n->begin = column();
    Nest nest(*this);
    ++pos_;
    n->kids = {must_be_condition(negation(), "'!'")};
    n->end = n->kids[0]->end;
    return deepen(n, n->kids[0]->depth);
  }

  NodePtr comparison() {
    NodePtr left = expr();
    const char op = comparison_op();
    if (!op) return left;
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Compare;
    n->op = op;
    NodePtr right = expr();
    n->kids = {must_be_number(left), must_be_number(right)};
    n->begin = left->begin;
    n->end = right->end;
    if (comparison_op())
      throw SyntaxError("comparisons do not chain: write 'a < b && b < c'", n->begin);
    return deepen(n, std::max(left->depth, right->depth));
  }

  // Consumes a comparison operator; its code in Node::op, or 0 when none follows.
  char comparison_op() {
    skip_space();
    if (at_end()) return 0;
    const char c = peek();
    const bool eq = next_is('=');
    char op = 0;
    if (c == '=' && eq) op = '=';
    if (c == '!' && eq) op = '!';
    if (c == '<') op = eq ? 'L' : '<';
    if (c == '>') op = eq ? 'G' : '>';
    if (op) pos_ += eq ? 2 : 1;
    return op;
  }

  // Conditions are refused where a number goes, and numbers where a condition goes: C's
  // conversions between them would hide a mistyped requirement.
  NodePtr must_be_number(NodePtr n) const {
    if (n->is_condition())
      throw SyntaxError("'" + text_of(std::string(src_), *n) +
                            "' is a condition, not a number: it cannot be computed with",
                        n->begin);
    return n;
  }
  NodePtr must_be_condition(NodePtr n, const std::string& of) const {
    if (!n->is_condition())
      throw SyntaxError("'" + text_of(std::string(src_), *n) + "' is a number, but " + of +
                            " takes a condition: compare it, e.g. '" +
                            text_of(std::string(src_), *n) + " > 0'",
                        n->begin);
    return n;
  }

  NodePtr expr() {
    NodePtr left = term();
    while (skip_space(), !at_end() && (peek() == '+' || peek() == '-'))
      left = binary(left, &Parser::term);
    return left;
  }

  NodePtr term() {
    NodePtr left = unary();
    while (skip_space(), !at_end() && (peek() == '*' || peek() == '/' || peek() == '%'))
      left = binary(left, &Parser::unary);
    return left;
  }

  NodePtr binary(const NodePtr& left, NodePtr (Parser::*operand)()) {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Binary;
    n->op = src_[pos_++];
    NodePtr right = (this->*operand)();
    n->kids = {must_be_number(left), must_be_number(right)};
    n->begin = left->begin;
    n->end = right->end;
    return deepen(n, std::max(left->depth, right->depth));
  }

  NodePtr unary() {
    skip_space();
    if (!at_end() && peek() == '-') {
      auto n = std::make_shared<Node>();
      n->kind = Node::Kind::Neg;
      n->begin = column();
      Nest nest(*this);
      ++pos_;
      n->kids = {must_be_number(unary())};
      n->end = n->kids[0]->end;
      return deepen(n, n->kids[0]->depth);
    }
    return atom();
  }

  NodePtr atom() {
    skip_space();
    if (at_end()) fail_expected("an expression");
    const char c = peek();
    if (std::isdigit(static_cast<unsigned char>(c))) return integer();
    if (c == '(') {
      const std::size_t begin = column();
      Nest nest(*this);
      ++pos_;
      auto inner = std::make_shared<Node>(*(conditions_ ? logic_or() : expr()));
      skip_space();
      if (at_end() || peek() != ')') fail_expected("')'");
      ++pos_;
      inner->begin = begin;  // so messages quote the parentheses too
      inner->end = column();
      return inner;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parameter();
    fail_expected("an expression");
  }

  NodePtr integer() {
    auto n = std::make_shared<Node>();
    n->begin = column();
    std::int64_t v = 0;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) {
      const int digit = src_[pos_] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
        throw SyntaxError("integer literal does not fit in 64 bits", n->begin);
      v = v * 10 + digit;
      ++pos_;
    }
    if (!at_end() && std::isalpha(static_cast<unsigned char>(peek())))
      throw SyntaxError("invalid integer literal", n->begin);
    n->value = v;
    n->end = column();
    return n;
  }

  NodePtr parameter() {
    const std::size_t begin = column();
    const std::size_t start = pos_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_')) ++pos_;
    const std::string_view word = src_.substr(start, pos_ - start);
    const bool is_par = word.size() > 3 && word.substr(0, 3) == "par" &&
                        word.find_first_not_of("0123456789", 3) == std::string_view::npos;
    if (!is_par || word.size() > 6)
      throw SyntaxError("unknown name '" + std::string(word) + "': expected parN (N-th parameter)",
                        begin);
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Param;
    n->par = std::stoul(std::string(word.substr(3)));
    n->begin = begin;
    n->end = column();
    if (!at_end() && peek() == '.') {
      ++pos_;
      const char d = at_end() ? '\0' : peek();
      if (d != 'x' && d != 'y' && d != 'z') fail_expected("'x', 'y' or 'z' after '.'");
      ++pos_;
      if (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_'))
        throw SyntaxError("expected 'x', 'y' or 'z' after '.'", column() - 1);
      n->kind = Node::Kind::Extent;
      n->dim = d - 'x';
      n->end = column();
      return n;
    }
    while (skip_space(), !at_end() && peek() == '[') {
      Nest nest(*this);
      ++pos_;
      n->kids.push_back(must_be_number(expr()));
      deepen(n, n->kids.back()->depth);
      skip_space();
      if (at_end() || peek() != ']') fail_expected("']'");
      ++pos_;
      n->kind = Node::Kind::Index;
      n->end = column();
    }
    return n;
  }

  // Counts the parser's own recursion (unary minus, parentheses, subscripts).
  struct Nest {
    explicit Nest(Parser& p) : parser(p) {
      if (++parser.nesting_ > kMaxDepth) parser.too_deep();
    }
    ~Nest() { --parser.nesting_; }
    Parser& parser;
  };
  [[noreturn]] void too_deep() const {
    throw SyntaxError("the expression nests deeper than " + std::to_string(kMaxDepth) + " levels",
                      column());
  }
  // Sets a node's depth from its deepest child's; long operator chains count too.
  std::shared_ptr<Node> deepen(std::shared_ptr<Node> n, int kid_depth) const {
    n->depth = std::max(n->depth, kid_depth + 1);
    if (n->depth > kMaxDepth) too_deep();
    return n;
  }

  [[noreturn]] void fail_at(const std::string& what) const { throw SyntaxError(what, column()); }
  [[noreturn]] void fail_expected(const std::string& what) {
    const std::string found =
        at_end() ? std::string("the end of the expression") : "'" + std::string(1, peek()) + "'";
    throw SyntaxError("expected " + what + ", found " + found, column());
  }

  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) ++pos_;
  }
  bool at_end() const { return pos_ >= src_.size(); }
  char peek() const { return src_[pos_]; }
  bool next_is(char c) const { return pos_ + 1 < src_.size() && src_[pos_ + 1] == c; }
  std::size_t column() const { return pos_ + 1; }

  std::string_view src_;
  bool conditions_;  // parsing a [[cei::requires]]: a parenthesis may hold a condition
  std::size_t pos_ = 0;
  int nesting_ = 0;
};

}  // namespace

ExprList parse(std::string_view source) {
  return Parser(source, false).list();
}

ExprList parse_condition(std::string_view source) {
  return Parser(source, true).condition();
}

}  // namespace cei::expr
