// The first pass over a translation unit: every CE call, every reference to a variable or field,
// every lambda and the declarations the rewriting needs, in the main file only.
#pragma once

#include "ce_index.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <map>
#include <vector>

namespace cei::instrument {

struct CeCall {
  const clang::CallExpr* call;
  const model::CoreElement* ce;
  const clang::FunctionDecl* native;
  const clang::Stmt* body;              // the enclosing function's (or lambda's) body
  const clang::FunctionDecl* function;  // the innermost enclosing non-lambda function
  const clang::LambdaExpr* lambda;      // innermost enclosing lambda, or null
  bool templated;                       // inside a template pattern or instantiation
  // Inside the block of a `try` of its own function's (or lambda's) body, nested blocks included:
  // waited for at the call, so that its exception is thrown there, as in the sequential program.
  bool in_try;
};

struct Reference {
  const clang::Expr* node;  // DeclRefExpr (of a variable or a structured binding), or MemberExpr
                            // on `this`
  const clang::ValueDecl* decl;
  const clang::LambdaExpr* lambda;
  bool templated;
};

struct Facts {
  std::vector<CeCall> calls;  // in pre-order: an outer call before the calls in its arguments
  std::vector<Reference> refs;
  std::vector<const clang::LambdaExpr*> lambdas;
  std::vector<const clang::UnaryOperator*> this_derefs;  // `*this` written in a member function
  std::map<const clang::VarDecl*, const clang::DeclStmt*> decl_stmt;
  std::map<const clang::VarDecl*, const clang::Expr*> range_for_init;  // loop variable -> range
};

class Collector : public clang::RecursiveASTVisitor<Collector> {
 public:
  Collector(clang::ASTContext& ctx, const CeIndex& index, Facts& facts)
      : ctx_(ctx), index_(index), facts_(facts) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(clang::Decl* d);
  bool TraverseLambdaExpr(clang::LambdaExpr* l);
  bool TraverseCXXTryStmt(clang::CXXTryStmt* s);
  // Unevaluated operands: nothing there runs, so nothing there is rewritten.
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr*) { return true; }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr*) { return true; }
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr*) { return true; }
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc) { return true; }
  bool TraverseTypeOfExprTypeLoc(clang::TypeOfExprTypeLoc) { return true; }

  bool VisitCallExpr(clang::CallExpr* call);
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref);
  bool VisitMemberExpr(clang::MemberExpr* member);
  bool VisitUnaryOperator(clang::UnaryOperator* op);
  bool VisitDeclStmt(clang::DeclStmt* stmt);
  bool VisitCXXForRangeStmt(clang::CXXForRangeStmt* loop);

 private:
  bool in_main_file(clang::SourceLocation loc) const;
  bool templated() const;
  bool templated_use(const clang::ValueDecl* decl) const;

  clang::ASTContext& ctx_;
  const CeIndex& index_;
  Facts& facts_;
  std::vector<const clang::FunctionDecl*> functions_;
  std::vector<const clang::LambdaExpr*> lambdas_;
  // Per enclosing function or lambda, innermost last: the try blocks the traversal is inside. A
  // lambda's body starts afresh: it runs where it is called, not where it is written.
  std::vector<int> try_depth_;
};

}  // namespace cei::instrument
