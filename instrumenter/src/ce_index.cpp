#include "ce_index.hpp"

#include "frontend/type_classify.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>

namespace cei::instrument {

CeIndex::CeIndex(const std::vector<model::Model>& models) {
  for (const auto& m : models)
    for (const auto& ce : m.ces)
      for (const auto& v : ce.versions) {
        // A call the program writes to an approximation asks for that result: it stays a plain
        // call, never a task that might run the accurate version instead.
        if (v.approximate) continue;
        std::string cls = v.declaring_class;
        if (cls.rfind("::", 0) == 0) cls.erase(0, 2);
        by_qualified_name_[cls + "::" + ce.name] = &ce;
      }
}

const model::CoreElement* CeIndex::find(const clang::FunctionDecl* fd) const {
  if (!fd || !fd->getIdentifier()) return nullptr;
  const auto* parent = llvm::dyn_cast<clang::NamedDecl>(fd->getDeclContext());
  if (!parent) return nullptr;
  auto it =
      by_qualified_name_.find(parent->getQualifiedNameAsString() + "::" + fd->getNameAsString());
  if (it == by_qualified_name_.end()) return nullptr;
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(fd);
  const bool is_instance = method && method->isInstance();
  if (is_instance != !it->second->is_static) return nullptr;
  return same_signature(*fd, *it->second) ? it->second : nullptr;
}

// Clang resolved the call to `fd`; it is the CE's native version only if its parameters and
// result are the CE's (a non-CE overload, `scale(Vec&, double)` beside the CE's
// `scale(Vec&, long)`, stays a plain call).
bool CeIndex::same_signature(const clang::FunctionDecl& fd, const model::CoreElement& ce) {
  const clang::ASTContext& ctx = fd.getASTContext();
  if (fd.getNumParams() != ce.params.size()) return false;
  if (frontend::classify(fd.getReturnType(), ctx).type.spelling != ce.result.spelling)
    return false;
  for (unsigned i = 0; i < fd.getNumParams(); ++i) {
    const clang::QualType t = fd.getParamDecl(i)->getType();
    if (t->isReferenceType() != ce.params[i].is_reference ||
        frontend::classify(t, ctx).type.spelling != ce.params[i].type.spelling)
      return false;
  }
  return true;
}

}  // namespace cei::instrument
