// Where an lvalue's storage belongs: the variable (or field of `this`) whose data a task argument,
// an assignment target or a reference local lies under. The runtime keys a datum by its own
// address and files it under its root, so a host use of the root waits for it; an lvalue whose
// root the analysis cannot name would be written by a task that no later host access waits for,
// and is refused (docs/instrumenter.md, "Arguments and aliases").
#pragma once

#include "collector.hpp"

#include <clang/AST/ASTContext.h>

#include <functional>
#include <optional>
#include <string>

namespace cei::instrument {

struct Root {
  enum Kind { None, Known, Opaque } kind = None;  // None: not storage (a temporary)
  const clang::ValueDecl* decl = nullptr;
  // The reference the lvalue starts from, exempt from syncs (the task's); null when it lies in an
  // accessor's body, which keeps its syncs because host code calls it too.
  const clang::Expr* node = nullptr;
  const clang::Expr* origin = nullptr;  // names decl where the lvalue is written, or null
  bool whole = false;                   // the lvalue is the variable itself, named directly
  // The element and member steps from decl to the lvalue: "" (decl), "[]" (an element), ".f[]".
  std::string path;
  // Opaque: the sub-expression the analysis cannot see through, what it is, and what to write.
  const clang::Expr* at = nullptr;
  std::string why;
  bool through_pointer = false;
  // The reference is the loop variable of a range-for whose elements are not what indexing the
  // container gives (a map's key/value pairs, a user class's iterator): it holds, or stands
  // apart from, the task data at `path`, so a host use of it waits for all of decl's tasks.
  bool aggregate = false;
};

// Where an lvalue is used: names in the root's text must mean there what they mean to the analysis.
struct Site {
  const clang::FunctionDecl* function;  // innermost non-lambda function
  const clang::LambdaExpr* lambda;      // innermost lambda, or null
};

const clang::Expr* strip_copy(const clang::Expr* e);

// Reads the AST of one translation unit; not thread-safe (one Planner, one thread, uses it).
class RootFinder {
 public:
  RootFinder(clang::ASTContext& ctx, const Facts& facts) : ctx_(ctx), facts_(facts) {}

  Root of(const clang::Expr* e) const;
  // A use `ref` of `var`: the variable itself, or for a reference local what it is bound to.
  Root of_var(const clang::VarDecl* var, const clang::Expr* ref) const;
  // The text that names r's variable at `site` ("A", "this->rows", "::table"), or nullopt where
  // that name would mean another object there.
  std::optional<std::string> name_at(const Root& r, const Site& site) const;
  // `tile(i, k)` where tile is a local lambda whose body is `return A[i * nb + k];`: the body
  // with the call's arguments in place of the parameters, "A[(i) * nb + (k)]", so that the task's
  // argument is computed without running the body (whose own uses of A wait for A's tasks).
  // Null when the call is no such lambda or inlining could change what is computed.
  std::optional<std::string> inlined_lambda_call(
      const clang::Expr* arg, const Site& site,
      const std::function<std::string(const clang::Expr*)>& text_of) const;
  // The advice for an opaque root, ending the diagnostic: what to write instead.
  static std::string advice(const Root& r);

 private:
  struct Frame;
  Root walk(const clang::Expr* e, const Frame* f, int depth) const;
  Root range_for_binding(const clang::BindingDecl* b, const clang::DeclRefExpr* ref) const;
  Root in_frame(const clang::DeclRefExpr* ref, const clang::VarDecl* var, const Frame& f,
                int depth) const;
  Root this_member(const clang::FieldDecl* field, const clang::Expr* m, const Frame* f,
                   int depth) const;
  Root accessor(const clang::FunctionDecl* fd, const clang::Expr* call,
                llvm::ArrayRef<const clang::Expr*> args, const clang::Expr* object, bool this_outer,
                const clang::LambdaExpr* lambda, const Frame* f, int depth) const;
  const clang::LambdaExpr* lambda_of(const clang::CXXRecordDecl* cls) const;
  const clang::Expr* single_return(const clang::FunctionDecl* fd) const;
  bool visible_at(const clang::VarDecl* var, const Site& site) const;

  clang::ASTContext& ctx_;
  const Facts& facts_;
};

}  // namespace cei::instrument
