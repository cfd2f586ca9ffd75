#include "version_reader.hpp"

#include <clang/AST/DeclCXX.h>

namespace cei::frontend {

void VersionReader::read(const clang::CXXMethodDecl& m, model::CoreElement& ce, const ReadAttr& a,
                         bool approximate) {
  const AttrArg* arg = a.arg("declaring_class");
  if (!arg) return;  // reported by validate_attrs()
  std::string scope = arg->text;
  if (scope.rfind("::", 0) == 0) scope = scope.substr(2);
  const model::Location at = rc_.arg_loc(a, *arg);
  for (const auto& v : ce.versions) {
    if (v.declaring_class == scope)
      return rc_.diags.error(at, "version '" + scope + "::" + ce.name + "' given twice");
    // Under a budget the runtime runs "the" approximation; two would leave it to guess.
    if (approximate && v.approximate)
      return rc_.diags.error(at, "CE '" + ce.name + "' has a second approximate version ('" +
                                     scope + "::" + ce.name + "', after '" + v.declaring_class +
                                     "::" + ce.name + "'); give it one");
  }
  if (approximate && !ce.is_static)
    return rc_.diags.error(at, "'cei::approximate' on instance CE '" + ce.name +
                                   "': its versions are member functions of the callee's class, "
                                   "so an approximate one would be another class's; make the CE "
                                   "static, taking the object as a [[cei::inout]] parameter");
  if (check(m, ce, scope, at)) ce.versions.push_back({scope, rc_.loc(a.raw->loc), approximate});
}

bool VersionReader::check(const clang::CXXMethodDecl& m, const model::CoreElement& ce,
                          const std::string& scope, const model::Location& at) {
  const std::string target = scope + "::" + ce.name;
  if (!index_.has_scope(scope)) {
    rc_.diags.error(at, "declaring class '" + scope +
                            "' not found: no namespace or class of that name is declared (does "
                            "the CEI header include the application's header?)");
    return false;
  }
  if (!ce.is_static && !index_.is_class(scope)) {
    rc_.diags.error(at, "CE '" + ce.name + "' is an instance method, so '" + scope +
                            "' must be a class with a non-static member function '" + ce.name +
                            "'; it is a namespace");
    return false;
  }
  const auto candidates = index_.find(scope, ce.name);
  if (candidates.empty()) {
    std::vector<std::string> others;
    for (const auto* f : index_.in_scope(scope)) others.push_back(signature(*f));
    rc_.diags.error(at,
                    "no function '" + target + "' declared; " +
                        (others.empty() ? "'" + scope + "' declares no functions"
                                        : "candidates in '" + scope + "': " + join(others, "; ")));
    return false;
  }
  std::vector<std::string> seen;
  for (const clang::FunctionDecl* f : candidates) {
    const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(f);
    const bool instance = method && !method->isStatic();
    if (instance == !ce.is_static && same_signature(m, *f)) return true;
    seen.push_back(signature(*f) + (instance ? " (non-static member)" : ""));
  }
  rc_.diags.error(at, "signature mismatch: CE '" +
                          signature(m, ce.is_static ? "" : " (non-static member)") +
                          "' has no matching '" + target + "'; candidates: " + join(seen, "; "));
  return false;
}

bool VersionReader::same_signature(const clang::FunctionDecl& a,
                                   const clang::FunctionDecl& b) const {
  const auto* ta = a.getType()->getAs<clang::FunctionProtoType>();
  const auto* tb = b.getType()->getAs<clang::FunctionProtoType>();
  if (!ta || !tb || ta->getNumParams() != tb->getNumParams()) return false;
  if (!rc_.ctx.hasSameType(ta->getReturnType(), tb->getReturnType())) return false;
  for (unsigned i = 0; i < ta->getNumParams(); ++i)
    if (!rc_.ctx.hasSameType(ta->getParamType(i), tb->getParamType(i))) return false;
  return true;
}

std::string VersionReader::signature(const clang::FunctionDecl& f,
                                     const std::string& suffix) const {
  clang::PrintingPolicy pp(rc_.ctx.getLangOpts());
  pp.SuppressTagKeyword = true;
  std::vector<std::string> params;
  for (const auto* p : f.parameters()) params.push_back(p->getType().getAsString(pp));
  return f.getReturnType().getAsString(pp) + " " + f.getQualifiedNameAsString() + "(" +
         join(params) + ")" + suffix;
}

}  // namespace cei::frontend
