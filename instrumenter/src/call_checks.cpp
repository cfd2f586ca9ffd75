#include "call_checks.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Lexer.h>

#include <cctype>
#include <set>
#include <string>

namespace cei::instrument {

using namespace clang;

namespace {

std::string spelled(const Expr* e, const ASTContext& ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()),
                              ctx.getSourceManager(), ctx.getLangOpts())
      .str();
}

// Whether `obj` is an element of a standard container that holds its elements by value
// (`shapes[1]`, `shapes.at(1)`, `shapes.back()` of a std::vector<Shape>): exactly of its type.
bool container_element(const Expr* obj) {
  const CXXMethodDecl* m = nullptr;
  if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(obj))
    m = llvm::dyn_cast_or_null<CXXMethodDecl>(op->getCalleeDecl());
  else if (const auto* call = llvm::dyn_cast<CXXMemberCallExpr>(obj))
    m = call->getMethodDecl();
  if (!m || !m->getParent()->isInStdNamespace()) return false;
  static const std::set<std::string> holders = {"vector", "deque", "array", "map", "unordered_map"};
  static const std::set<std::string> accessors = {"operator[]", "at", "front", "back"};
  return holders.count(m->getParent()->getNameAsString()) && accessors.count(m->getNameAsString());
}

// Whether `obj` is an object of exactly its static class: a variable or member of class type
// (not a reference), or an element of a built-in array or a standard container of them.
bool exact_class(const Expr* obj) {
  obj = obj->IgnoreParenImpCasts();
  if (const auto* ref = llvm::dyn_cast<DeclRefExpr>(obj)) {
    const auto* var = llvm::dyn_cast<VarDecl>(ref->getDecl());
    return var && !var->getType()->isReferenceType();
  }
  if (const auto* m = llvm::dyn_cast<MemberExpr>(obj)) {
    const auto* field = llvm::dyn_cast<FieldDecl>(m->getMemberDecl());
    return field && !field->getType()->isReferenceType();
  }
  if (const auto* s = llvm::dyn_cast<ArraySubscriptExpr>(obj))
    return s->getBase()->IgnoreParenImpCasts()->getType()->isArrayType();
  return container_element(obj);
}

std::string squeezed(const std::string& text) {
  std::string out;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) out += ch;
  return out;
}

// Whether two paths of steps from one root ("", "[]", ".f[]") name storage that overlaps.
bool overlap(const std::string& a, const std::string& b) {
  const auto& shorter = a.size() <= b.size() ? a : b;
  const auto& longer = a.size() <= b.size() ? b : a;
  return longer.compare(0, shorter.size(), shorter) == 0 &&
         (longer.size() == shorter.size() || longer[shorter.size()] == '[' ||
          longer[shorter.size()] == '.');
}

}  // namespace

std::optional<Refusal> virtual_call(const CeCall& c) {
  const auto* member_call = llvm::dyn_cast<CXXMemberCallExpr>(c.call);
  const CXXMethodDecl* method = member_call ? member_call->getMethodDecl() : nullptr;
  if (!method || !method->getParent()->isPolymorphic()) return std::nullopt;
  if (method->getParent()->hasAttr<FinalAttr>()) return std::nullopt;
  const Expr* obj = member_call->getImplicitObjectArgument();
  const auto* callee = llvm::dyn_cast<MemberExpr>(member_call->getCallee()->IgnoreParens());
  if (!callee || callee->isArrow() || exact_class(obj)) return std::nullopt;
  const std::string cls = method->getParent()->getNameAsString();
  return Refusal{obj, "ceic: instance CE '" + c.ce->name + "' of the polymorphic class '" + cls +
                          "' is called on an object that may be of a derived class: C++ would "
                          "run the override on the whole object, the task runs '" +
                          cls + "::" + c.ce->name + "' on a copy of its '" + cls +
                          "' part; call it on a variable of the object's own class (not a "
                          "reference), or make the class final [ceic-virtual-call]"};
}

std::optional<Refusal> destructor_call(const CeCall& c) {
  if (!llvm::isa_and_nonnull<CXXDestructorDecl>(c.function)) return std::nullopt;
  return Refusal{c.call, "ceic: call of CE '" + c.ce->name +
                             "' in a destructor: a global's or static's destructor runs after "
                             "the runtime has stopped at exit; call it before the object dies "
                             "(a member function such as 'close()' the program calls) "
                             "[ceic-destructor-call]"};
}

std::optional<Refusal> aliased_arguments(const CeCall& c, const RootFinder& roots,
                                         const ASTContext& ctx) {
  struct Arg {
    const Expr* e;
    bool written;
    Root root;
  };
  std::vector<Arg> args;
  if (const auto* m = llvm::dyn_cast<CXXMemberCallExpr>(c.call))
    args.push_back(
        {m->getImplicitObjectArgument(), true, roots.of(m->getImplicitObjectArgument())});
  for (unsigned i = 0; i < c.call->getNumArgs() && i < c.ce->params.size(); ++i) {
    const auto& p = c.ce->params[i];
    const bool written = p.direction != model::Direction::In;
    // A by-value parameter is a copy in the sequential program too.
    if (!written && !c.native->getParamDecl(i)->getType()->isReferenceType()) continue;
    args.push_back({c.call->getArg(i), written, roots.of(c.call->getArg(i))});
  }
  for (std::size_t i = 0; i < args.size(); ++i)
    for (std::size_t j = 0; j < args.size(); ++j) {
      const Arg &a = args[i], &b = args[j];
      if (i == j || !b.written || (a.written && j > i) || a.root.kind != Root::Known ||
          b.root.kind != Root::Known || a.root.decl != b.root.decl ||
          !overlap(a.root.path, b.root.path))
        continue;
      // The same text, or the variable and a part of it: certainly one object. (`rows[i]` and
      // `rows[j]` may be one too, when i == j: the runtime gives the in the value from before
      // the call.)
      const std::string x = spelled(a.e, ctx), y = spelled(b.e, ctx);
      if (!a.root.whole && !b.root.whole && squeezed(x) != squeezed(y)) continue;
      const std::string same =
          squeezed(x) == squeezed(y)
              ? "'" + x + "' is passed twice to CE '" + c.ce->name + "'"
              : "'" + x + "' and '" + y + "' overlap in one call of CE '" + c.ce->name + "'";
      return Refusal{a.e, "ceic: " + same + ", which writes '" + y +
                              "': the function sees one object, the task would read the value " +
                              "from before the call apart from the one it writes; pass a copy " +
                              "made before the call ('auto copy = " + x +
                              ";', then 'copy' in its place) [ceic-aliased-arguments]"};
    }
  return std::nullopt;
}

}  // namespace cei::instrument
