#include "function_index.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace cei::frontend {
namespace {

class Collector : public clang::RecursiveASTVisitor<Collector> {
 public:
  Collector(std::set<std::string>& scopes, std::set<std::string>& classes,
            std::multimap<std::string, const clang::FunctionDecl*>& by_scope)
      : scopes_(scopes), classes_(classes), by_scope_(by_scope) {}

  bool VisitNamespaceDecl(clang::NamespaceDecl* d) {
    scopes_.insert(d->getQualifiedNameAsString());
    return true;
  }
  bool VisitCXXRecordDecl(clang::CXXRecordDecl* d) {
    if (d->getIdentifier()) {
      scopes_.insert(d->getQualifiedNameAsString());
      classes_.insert(d->getQualifiedNameAsString());
    }
    return true;
  }
  bool VisitFunctionDecl(clang::FunctionDecl* f) {
    // Only the first declaration: a definition after a declaration is the same function.
    if (f->isImplicit() || f->getPreviousDecl() || !f->getIdentifier()) return true;
    const auto* scope = llvm::dyn_cast<clang::NamedDecl>(f->getDeclContext());
    if (scope) by_scope_.emplace(scope->getQualifiedNameAsString(), f);
    return true;
  }

 private:
  std::set<std::string>& scopes_;
  std::set<std::string>& classes_;
  std::multimap<std::string, const clang::FunctionDecl*>& by_scope_;
};

}  // namespace

FunctionIndex::FunctionIndex(clang::ASTContext& ctx) {
  Collector(scopes_, classes_, by_scope_).TraverseDecl(ctx.getTranslationUnitDecl());
}

std::vector<const clang::FunctionDecl*> FunctionIndex::find(const std::string& scope,
                                                            const std::string& name) const {
  std::vector<const clang::FunctionDecl*> out;
  for (const auto* f : in_scope(scope))
    if (f->getName() == name) out.push_back(f);
  return out;
}

std::vector<const clang::FunctionDecl*> FunctionIndex::in_scope(const std::string& scope) const {
  std::vector<const clang::FunctionDecl*> out;
  auto [lo, hi] = by_scope_.equal_range(scope);
  for (auto it = lo; it != hi; ++it) out.push_back(it->second);
  return out;
}

}  // namespace cei::frontend
