#include "type_classify.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Type.h>

namespace cei::frontend {
namespace {

using model::TypeKind;

clang::PrintingPolicy policy(const clang::ASTContext& ctx) {
  clang::PrintingPolicy p(ctx.getLangOpts());
  p.SuppressTagKeyword = true;
  p.FullyQualifiedName = true;
  p.PrintCanonicalTypes = true;
  return p;
}

bool is_arithmetic(clang::QualType t) {
  return t->isBuiltinType() && t->isArithmeticType();
}

bool copyable(const clang::CXXRecordDecl& rd) {
  if (rd.needsImplicitCopyConstructor()) return !rd.defaultedCopyConstructorIsDeleted();
  for (const clang::CXXConstructorDecl* c : rd.ctors())
    if (c->isCopyConstructor() && !c->isDeleted()) return true;
  return false;
}

}  // namespace

Classified classify(clang::QualType written, const clang::ASTContext& ctx) {
  const clang::QualType t = written.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const clang::PrintingPolicy pp = policy(ctx);
  Classified out;
  model::Type& type = out.type;
  type.spelling = t.getAsString(pp);
  if (t->isVoidType()) return out;
  if (is_arithmetic(t)) {
    type.kind = TypeKind::Scalar;
    type.element = type.spelling;
    return out;
  }
  const auto* rd = t->getAsCXXRecordDecl();
  if (!rd) {
    out.error = "type '" + type.spelling +
                "' is not supported (use an arithmetic scalar, std::vector, cei::Array, "
                "std::string or a copyable class)";
    return out;
  }
  if (const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd)) {
    const std::string tmpl = spec->getSpecializedTemplate()->getQualifiedNameAsString();
    const clang::TemplateArgumentList& args = spec->getTemplateArgs();
    const bool std_name = rd->isInStdNamespace();
    if (tmpl == "cei::Array" ||
        (std_name && (rd->getName() == "vector" || rd->getName() == "basic_string"))) {
      const clang::QualType elem = args[0].getAsType().getCanonicalType();
      type.element = elem.getAsString(pp);
      if (!is_arithmetic(elem)) {
        out.error = "the element type '" + type.element + "' of '" + type.spelling +
                    "' is not an arithmetic type";
        return out;
      }
      if (tmpl == "cei::Array") {
        const std::int64_t rank = args[1].getAsIntegral().getExtValue();
        type.kind = TypeKind::Array;
        type.rank = static_cast<int>(rank);
        type.spelling = "cei::Array<" + type.element + ", " + std::to_string(rank) + ">";
        if (rank < 1 || rank > 3)
          out.error = "'" + type.spelling + "' has " + std::to_string(rank) +
                      " dimensions; cei::Array supports 1 to 3";
        return out;
      }
      type.rank = 1;
      if (rd->getName() == "vector") {
        type.kind = TypeKind::StdVector;
        type.spelling = "std::vector<" + type.element + ">";
        if (type.element == "bool")
          out.error = "std::vector<bool> is not contiguous; use cei::Vector<char>";
        return out;
      }
      if (type.element == "char") {
        type.kind = TypeKind::String;
        type.spelling = "std::string";
        return out;
      }
    }
  }
  type.kind = TypeKind::Object;
  type.rank = 0;
  type.element.clear();
  if (!rd->hasDefinition()) {
    out.error = "class '" + type.spelling + "' is incomplete";
  } else if (!copyable(*rd->getDefinition())) {
    out.error = "class '" + type.spelling + "' is not copyable";
  }
  return out;
}

}  // namespace cei::frontend
