#include "collector.hpp"

#include <clang/Basic/SourceManager.h>

namespace cei::instrument {

using namespace clang;

bool Collector::in_main_file(SourceLocation loc) const {
  const auto& sm = ctx_.getSourceManager();
  return loc.isValid() && sm.isInMainFile(sm.getExpansionLoc(loc));
}

namespace {
bool is_templated(const FunctionDecl* fd) {
  return fd->isDependentContext() || fd->getTemplateInstantiationPattern() != nullptr;
}

// The CE that a call clang could not resolve yet (its arguments depend on a template parameter:
// `fz::bump(v, k)` with `auto k`) may resolve to: one of the functions its name found.
std::pair<const FunctionDecl*, const model::CoreElement*> unresolved_ce(const CallExpr* call,
                                                                        const CeIndex& index) {
  const auto* names = llvm::dyn_cast<OverloadExpr>(call->getCallee()->IgnoreParenImpCasts());
  if (!names) return {nullptr, nullptr};
  for (const NamedDecl* d : names->decls()) {
    const auto* fd = llvm::dyn_cast<FunctionDecl>(d->getUnderlyingDecl());
    if (const auto* ce = fd ? index.find(fd) : nullptr) return {fd, ce};
  }
  return {nullptr, nullptr};
}
}  // namespace

bool Collector::templated() const {
  for (const auto* fd : functions_)
    if (is_templated(fd)) return true;
  for (const auto* l : lambdas_)
    if (is_templated(l->getCallOperator())) return true;
  return false;
}

// A use of a variable declared outside a generic lambda (a capture, a global) names the same
// object in every instantiation, and ceic visits only the lambda's pattern: that use is rewritten
// (made to wait) as any other. One inside a template function, or of the lambda's own
// (possibly dependent) variables, is not.
bool Collector::templated_use(const ValueDecl* decl) const {
  for (const auto* fd : functions_)
    if (is_templated(fd)) return true;
  for (const auto* l : lambdas_)
    if (is_templated(l->getCallOperator()) &&
        l->getCallOperator()->Encloses(decl->getDeclContext()))
      return true;
  return false;
}

bool Collector::TraverseDecl(Decl* d) {
  auto* fd = llvm::dyn_cast_or_null<FunctionDecl>(d);
  if (!fd) return RecursiveASTVisitor::TraverseDecl(d);
  functions_.push_back(fd);
  try_depth_.push_back(0);
  bool ok = RecursiveASTVisitor::TraverseDecl(d);
  try_depth_.pop_back();
  functions_.pop_back();
  return ok;
}

bool Collector::TraverseLambdaExpr(LambdaExpr* l) {
  if (in_main_file(l->getBeginLoc()) && !functions_.empty()) facts_.lambdas.push_back(l);
  lambdas_.push_back(l);
  try_depth_.push_back(0);
  bool ok = RecursiveASTVisitor::TraverseLambdaExpr(l);
  try_depth_.pop_back();
  lambdas_.pop_back();
  return ok;
}

// The try block counts (a function-try-block too: it is its function's body); the handlers do
// not, unless they lie in an outer try block.
bool Collector::TraverseCXXTryStmt(CXXTryStmt* s) {
  if (try_depth_.empty()) return RecursiveASTVisitor::TraverseCXXTryStmt(s);
  ++try_depth_.back();
  bool ok = TraverseStmt(s->getTryBlock());
  --try_depth_.back();
  for (unsigned i = 0; ok && i < s->getNumHandlers(); ++i) ok = TraverseStmt(s->getHandler(i));
  return ok;
}

bool Collector::VisitCallExpr(CallExpr* call) {
  if (functions_.empty() || !in_main_file(call->getBeginLoc())) return true;
  const FunctionDecl* native = call->getDirectCallee();
  const model::CoreElement* ce = index_.find(native);
  // In a template, a call that may resolve to a CE is one (refused there: plan_call).
  if (!ce && templated()) std::tie(native, ce) = unresolved_ce(call, index_);
  if (!ce) return true;
  // Inside a CE's own implementation calls stay plain: the task runs them in order.
  if (index_.find(functions_.front())) return true;
  const Stmt* body = lambdas_.empty() ? functions_.back()->getBody() : lambdas_.back()->getBody();
  facts_.calls.push_back({call, ce, native, body, functions_.back(),
                          lambdas_.empty() ? nullptr : lambdas_.back(), templated(),
                          try_depth_.back() > 0});
  return true;
}

bool Collector::VisitDeclRefExpr(DeclRefExpr* ref) {
  if (functions_.empty() || !in_main_file(ref->getBeginLoc())) return true;
  // A variable, or a structured binding (`a` of `auto& [a, b] = pr`), which uses what it names.
  const auto* decl = ref->getDecl();
  if (llvm::isa<VarDecl, BindingDecl>(decl))
    facts_.refs.push_back({ref, llvm::cast<ValueDecl>(decl),
                           lambdas_.empty() ? nullptr : lambdas_.back(),
                           templated_use(llvm::cast<ValueDecl>(decl))});
  return true;
}

bool Collector::VisitMemberExpr(MemberExpr* member) {
  if (functions_.empty() || !in_main_file(member->getBeginLoc())) return true;
  const auto* field = llvm::dyn_cast<FieldDecl>(member->getMemberDecl());
  if (field && llvm::isa<CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()))
    facts_.refs.push_back(
        {member, field, lambdas_.empty() ? nullptr : lambdas_.back(), templated()});
  return true;
}

bool Collector::VisitUnaryOperator(UnaryOperator* op) {
  if (functions_.empty() || templated() || !in_main_file(op->getBeginLoc())) return true;
  if (op->getOpcode() == UO_Deref &&
      llvm::isa<CXXThisExpr>(op->getSubExpr()->IgnoreParenImpCasts()))
    facts_.this_derefs.push_back(op);
  return true;
}

bool Collector::VisitDeclStmt(DeclStmt* stmt) {
  for (auto* d : stmt->decls())
    if (auto* var = llvm::dyn_cast<VarDecl>(d)) facts_.decl_stmt[var] = stmt;
  return true;
}

bool Collector::VisitCXXForRangeStmt(CXXForRangeStmt* loop) {
  facts_.range_for_init[loop->getLoopVariable()] = loop->getRangeInit();
  return true;
}

}  // namespace cei::instrument
