// Every function of the translation unit by qualified name, for matching `declaring_class = "S"`
// against `S::name` (S a namespace or a class).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace cei::frontend {

class FunctionIndex {
 public:
  explicit FunctionIndex(clang::ASTContext& ctx);

  bool has_scope(const std::string& scope) const { return scopes_.count(scope) > 0; }
  bool is_class(const std::string& scope) const { return classes_.count(scope) > 0; }
  // Functions named `scope::name` (overloads included).
  std::vector<const clang::FunctionDecl*> find(const std::string& scope,
                                               const std::string& name) const;
  // Every function declared directly in `scope`.
  std::vector<const clang::FunctionDecl*> in_scope(const std::string& scope) const;

 private:
  std::set<std::string> scopes_;  // namespaces and classes
  std::set<std::string> classes_;
  std::multimap<std::string, const clang::FunctionDecl*> by_scope_;  // "S" -> S::f, S::g
};

}  // namespace cei::frontend
