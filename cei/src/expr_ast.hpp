// The work-size expression AST shared by the parser, checker and evaluator (private to cei_expr).
#pragma once

#include <cei/expr.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cei::expr {

struct Node {
  // Compare, Logic and Not are conditions ([[cei::requires]]); the others are numbers.
  enum class Kind { Int, Param, Extent, Index, Neg, Binary, Compare, Logic, Not };
  Kind kind = Kind::Int;
  std::int64_t value = 0;  // Int
  std::size_t par = 0;     // Param, Extent, Index
  int dim = 0;             // Extent: 0 for .x, 1 for .y, 2 for .z
  // Binary: + - * / %; Compare: = (==) ! (!=) < > L (<=) G (>=); Logic: & (&&) | (||)
  char op = 0;
  std::vector<std::shared_ptr<const Node>> kids;  // Neg, Not: 1, Binary, Compare, Logic: 2,
                                                  // Index: the subscripts
  std::size_t begin = 0;                          // 1-based column of the first character
  std::size_t end = 0;                            // 1-based column one past the last character
  int depth = 1;                                  // levels of the tree under and including it

  bool is_condition() const {
    return kind == Kind::Compare || kind == Kind::Logic || kind == Kind::Not;
  }
};

// The source text a node was parsed from, for messages.
inline std::string text_of(const std::string& source, const Node& n) {
  return source.substr(n.begin - 1, n.end - n.begin);
}

}  // namespace cei::expr
