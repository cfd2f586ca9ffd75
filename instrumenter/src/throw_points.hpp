// The program's own `throw`s in the main file: before one, the tasks submitted so far finish,
// so that a CE's exception is the one thrown, as in the sequential program (issue 39, item 8).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>

#include <vector>

namespace cei::instrument {

std::vector<const clang::CXXThrowExpr*> throw_points(clang::ASTContext& ctx);

}  // namespace cei::instrument
