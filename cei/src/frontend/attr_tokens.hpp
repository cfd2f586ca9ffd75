// Reads `[[cei::...]]` attributes from the raw token stream of a source range.
//
// Why tokens and not the AST: clang drops attributes it does not know before building the AST, so
// `cei::` attributes never reach it. A ParsedAttrInfo plugin could keep them, but plugin attributes
// parse their arguments as C++ expressions, where `declaring_class = "S"` is an assignment to an
// undeclared name. Re-lexing the declaration's own source range keeps the exact text and columns
// of every argument (needed to point errors inside expression strings) at the cost of not seeing
// attributes produced by macros, which CEI headers have no reason to use.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace cei::frontend {

struct RawAttr {
  std::string name;                // after `cei::`: "method", "in", ...
  clang::SourceLocation loc;       // of the `cei` token
  bool has_args = false;           // written with parentheses
  std::string args_text;           // the text between the parentheses
  clang::SourceLocation args_loc;  // of the first character of args_text
};

// Every cei:: attribute written in [begin, end) of one file, in source order. Attributes of other
// namespaces (gnu::, clang::, none) are skipped.
std::vector<RawAttr> cei_attrs_in(const clang::ASTContext& ctx, clang::SourceLocation begin,
                                  clang::SourceLocation end);

}  // namespace cei::frontend
