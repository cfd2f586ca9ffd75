// Calls from the main file of functions defined elsewhere in the translation unit (an inline
// function of a header) and the globals those functions use, directly or through the functions
// they call whose bodies clang sees: a task on such a global must be waited for before the call,
// since ceic rewrites no use inside a header (docs/instrumenter.md, "What the analysis sees").
#pragma once

#include <clang/AST/ASTContext.h>

#include <map>
#include <set>
#include <vector>

namespace cei::instrument {

struct HeaderCall {
  const clang::CallExpr* call;
  std::set<const clang::VarDecl*> globals;  // canonical declarations
};

std::vector<HeaderCall> header_calls(clang::ASTContext& ctx);

}  // namespace cei::instrument
