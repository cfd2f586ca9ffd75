// `[[cei::method(declaring_class = "S")]]`: S::name must exist in the translation unit with the
// CE's signature (same parameter and return types); for an instance CE, S must be a class and
// S::name a non-static member function.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>

#include <string>

#include "function_index.hpp"
#include "read_context.hpp"

namespace cei::frontend {

class VersionReader {
 public:
  explicit VersionReader(const ReadContext& rc) : rc_(rc), index_(rc.ctx) {}

  // Appends the version to ce.versions, or reports why S::name does not implement the CE.
  // `approximate`: [[cei::approximate]], held to the same checks as [[cei::method]].
  void read(const clang::CXXMethodDecl& m, model::CoreElement& ce, const ReadAttr& a,
            bool approximate);

 private:
  bool check(const clang::CXXMethodDecl& m, const model::CoreElement& ce, const std::string& scope,
             const model::Location& at);
  bool same_signature(const clang::FunctionDecl& a, const clang::FunctionDecl& b) const;
  std::string signature(const clang::FunctionDecl& f, const std::string& suffix = "") const;

  const ReadContext& rc_;
  FunctionIndex index_;
};

}  // namespace cei::frontend
