#include "throw_points.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace cei::instrument {

using namespace clang;

namespace {

class Throws : public RecursiveASTVisitor<Throws> {
 public:
  explicit Throws(const SourceManager& sm) : sm_(sm) {}
  bool VisitCXXThrowExpr(CXXThrowExpr* t) {
    const SourceLocation at = t->getThrowLoc();
    if (at.isValid() && !at.isMacroID() && sm_.isInMainFile(at)) out.push_back(t);
    return true;
  }
  std::vector<const CXXThrowExpr*> out;

 private:
  const SourceManager& sm_;
};

}  // namespace

std::vector<const CXXThrowExpr*> throw_points(ASTContext& ctx) {
  Throws throws(ctx.getSourceManager());
  throws.TraverseDecl(ctx.getTranslationUnitDecl());
  return std::move(throws.out);
}

}  // namespace cei::instrument
