#include "ce_index.hpp"

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
  return is_instance == !it->second->is_static ? it->second : nullptr;
}

}  // namespace cei::instrument
