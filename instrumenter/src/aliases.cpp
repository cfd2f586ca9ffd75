#include "aliases.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

namespace cei::instrument {

using namespace clang;

namespace {

const Expr* parent_expr(ASTContext& ctx, const Expr* e, DynTypedNode* node = nullptr) {
  auto ps = ctx.getParents(*e);
  if (node) *node = ps.empty() ? DynTypedNode() : ps[0];
  return ps.empty() ? nullptr : ps[0].get<Expr>();
}

// Iterators and views by their class: the standard library's (`__normal_iterator`,
// `_Rb_tree_iterator`, `reverse_iterator`, ...), `std::span`, `std::basic_string_view`, and any
// class named like an iterator.
bool iterator_like(QualType t) {
  const CXXRecordDecl* cls = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!cls || !cls->getIdentifier()) return false;
  const std::string name = cls->getName().lower();
  if (name.find("iterator") != std::string::npos) return true;
  return cls->isInStdNamespace() && (name == "span" || name == "basic_string_view");
}

bool pointer_like(const VarDecl* var, const RootFinder& roots) {
  QualType t = var->getType();
  if (t->isReferenceType()) {
    // Bound to a temporary (`const auto& n = v.size()`): a value of its own, no alias.
    const Expr* init = var->getInit();
    if (const auto* cleanups = llvm::dyn_cast<ExprWithCleanups>(init)) init = cleanups->getSubExpr();
    return !llvm::isa<MaterializeTemporaryExpr>(init) &&
           roots.of_var(var, nullptr).kind != Root::Known;
  }
  if (t->isPointerType()) return !t->getPointeeType()->isFunctionType();
  return iterator_like(t);
}

// The variables of `tracked` (or pointer-like locals of `aliases`) that `init` names.
std::set<const ValueDecl*> named_roots(
    const Expr* init, const RootFinder& roots, const std::set<const ValueDecl*>& tracked,
    const std::map<const VarDecl*, std::set<const ValueDecl*>>& aliases) {
  std::set<const ValueDecl*> found;
  std::vector<const Stmt*> todo = {init};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (!s) continue;
    const ValueDecl* d = nullptr;
    if (const auto* ref = llvm::dyn_cast<DeclRefExpr>(s)) d = ref->getDecl();
    if (const auto* m = llvm::dyn_cast<MemberExpr>(s);
        m && llvm::isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()))
      d = m->getMemberDecl();
    if (const auto* var = llvm::dyn_cast_or_null<VarDecl>(d)) {
      if (auto it = aliases.find(var); it != aliases.end())
        found.insert(it->second.begin(), it->second.end());
      if (var->getType()->isReferenceType() && !llvm::isa<ParmVarDecl>(var)) {
        Root r = roots.of_var(var, nullptr);
        d = r.kind == Root::Known ? r.decl : nullptr;
      }
    }
    if (d && tracked.count(llvm::cast<ValueDecl>(d->getCanonicalDecl())))
      found.insert(llvm::cast<ValueDecl>(d->getCanonicalDecl()));
    for (const Stmt* child : s->children()) todo.push_back(child);
  }
  return found;
}

PointeeAccess reach(bool reads) { return reads ? PointeeAccess::Read : PointeeAccess::Write; }

// `it.size()`, `s.data()`, `s.front()`: a member call on the pointer-like object itself.
// Returns nullopt to climb on from `call` (it returns a pointer or an iterator again).
std::optional<PointeeAccess> member_call_access(const CXXMemberCallExpr* call,
                                                const std::function<bool(const Expr*)>& reads) {
  const auto* method = call ? call->getMethodDecl() : nullptr;
  if (!method) return PointeeAccess::Write;
  QualType r = method->getReturnType();
  if (r->isReferenceType()) return reach(reads(call));
  if (r->isPointerType() || iterator_like(r)) return std::nullopt;
  return method->isConst() ? PointeeAccess::None : PointeeAccess::Write;
}

std::optional<PointeeAccess> operator_access(const CXXOperatorCallExpr* op, const Expr* e,
                                             const std::function<bool(const Expr*)>& reads) {
  const bool first = op->getNumArgs() > 0 && op->getArg(0) == e;
  switch (op->getOperator()) {
    case OO_Star:
      if (op->getNumArgs() == 1) return reach(reads(op));
      return PointeeAccess::Write;
    case OO_Subscript:
      return first ? reach(reads(op)) : PointeeAccess::None;
    case OO_Arrow:
    case OO_Plus:
    case OO_Minus:
      return std::nullopt;  // `it->f` (a MemberExpr next), `it + 1`
    case OO_PlusPlus:
    case OO_MinusMinus:
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_Less:
    case OO_Greater:
    case OO_LessEqual:
    case OO_GreaterEqual:
    case OO_Spaceship:
      return PointeeAccess::None;
    case OO_Equal:
    case OO_PlusEqual:
    case OO_MinusEqual:
      return first ? PointeeAccess::None : PointeeAccess::Write;
    default:
      return PointeeAccess::Write;
  }
}

std::optional<PointeeAccess> builtin_access(const Expr* pe, const Expr* e,
                                            const std::function<bool(const Expr*)>& reads) {
  if (const auto* u = llvm::dyn_cast<UnaryOperator>(pe)) {
    if (u->getOpcode() == UO_Deref) return reach(reads(u));
    if (u->isIncrementDecrementOp() || u->getOpcode() == UO_LNot) return PointeeAccess::None;
    return PointeeAccess::Write;
  }
  if (const auto* b = llvm::dyn_cast<BinaryOperator>(pe)) {
    if (b->isComparisonOp() || b->isLogicalOp()) return PointeeAccess::None;
    if (b->isAdditiveOp()) return std::nullopt;
    if ((b->isAssignmentOp() || b->getOpcode() == BO_Comma) && b->getLHS() == e)
      return PointeeAccess::None;
    return PointeeAccess::Write;
  }
  if (llvm::isa<ArraySubscriptExpr>(pe)) return reach(reads(pe));
  if (const auto* m = llvm::dyn_cast<MemberExpr>(pe)) {
    if (m->isArrow()) return reach(reads(m));
    return std::nullopt;  // a member call on it: the caller looks at the call
  }
  return PointeeAccess::Write;
}

}  // namespace

std::map<const VarDecl*, std::set<const ValueDecl*>> pointer_aliases(
    const Facts& facts, const RootFinder& roots, const std::set<const ValueDecl*>& tracked) {
  std::map<const VarDecl*, std::set<const ValueDecl*>> aliases;
  // One local may be set from another (`auto e = it + 3`): until nothing changes.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [var, stmt] : facts.decl_stmt) {
      if (!var->hasLocalStorage() || llvm::isa<ParmVarDecl>(var) || !var->getInit() ||
          facts.range_for_init.count(var) || !pointer_like(var, roots))
        continue;
      auto found = named_roots(var->getInit(), roots, tracked, aliases);
      auto& known = aliases[var];
      const auto before = known.size();
      known.insert(found.begin(), found.end());
      grew = grew || known.size() != before;
      if (known.empty()) aliases.erase(var);
    }
  }
  return aliases;
}

PointeeAccess pointee_access(ASTContext& ctx, const Expr* ref,
                             const std::function<bool(const Expr*)>& only_reads,
                             const std::map<const VarDecl*, std::set<const ValueDecl*>>& aliases) {
  const auto* var = llvm::dyn_cast<VarDecl>(llvm::cast<DeclRefExpr>(ref)->getDecl());
  if (var && var->getType()->isReferenceType()) return reach(only_reads(ref));
  // A pointer to const only reads, wherever it goes.
  const bool to_const = var && var->getType()->isPointerType() &&
                        var->getType()->getPointeeType().isConstQualified();
  auto verdict = [&](PointeeAccess a) {
    return a == PointeeAccess::Write && to_const ? PointeeAccess::Read : a;
  };
  const Expr* e = ref;
  for (int guard = 0; guard < 64; ++guard) {
    DynTypedNode node;
    const Expr* pe = parent_expr(ctx, e, &node);
    if (!pe) {
      if (const auto* holder = node.get<VarDecl>())
        return aliases.count(holder) ? PointeeAccess::None : verdict(PointeeAccess::Write);
      // A statement: `if (p)`, a loop's condition; `return p` lets it escape.
      return node.get<ReturnStmt>() ? verdict(PointeeAccess::Write) : PointeeAccess::None;
    }
    if (llvm::isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                  ExprWithCleanups>(pe)) {
      e = pe;
      continue;
    }
    if (const auto* c = llvm::dyn_cast<CXXConstructExpr>(pe)) {
      if (c->getNumArgs() == 1 && c->getConstructor()->isCopyOrMoveConstructor()) {
        e = pe;
        continue;
      }
      return verdict(PointeeAccess::Write);
    }
    // Captured by a lambda: copied there; the body's uses are uses of their own.
    if (llvm::isa<LambdaExpr>(pe)) return PointeeAccess::None;
    std::optional<PointeeAccess> a;
    if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(pe)) {
      a = operator_access(op, e, only_reads);
    } else if (llvm::isa<MemberExpr>(pe) && !llvm::cast<MemberExpr>(pe)->isArrow()) {
      const auto* call = llvm::dyn_cast_or_null<CXXMemberCallExpr>(parent_expr(ctx, pe));
      a = member_call_access(call, only_reads);
      if (!a) pe = call;
    } else {
      a = builtin_access(pe, e, only_reads);
    }
    if (a) return verdict(*a);
    e = pe;
  }
  return verdict(PointeeAccess::Write);
}

Site site_of(ASTContext& ctx, const Expr* e) {
  Site site{nullptr, nullptr};
  DynTypedNode n = DynTypedNode::create(*e);
  for (int guard = 0; guard < 10000; ++guard) {
    auto ps = ctx.getParents(n);
    if (ps.empty()) break;
    n = ps[0];
    if (const auto* l = n.get<LambdaExpr>(); l && !site.lambda) site.lambda = l;
    const auto* fd = n.get<FunctionDecl>();
    const auto* m = llvm::dyn_cast_or_null<CXXMethodDecl>(fd);
    if (fd && !(m && m->getParent()->isLambda())) {
      site.function = fd;
      break;
    }
  }
  return site;
}

bool host_uses_outputs(ASTContext& ctx, const Facts& facts, const RootFinder& roots,
                       const CeCall& c) {
  std::set<const ValueDecl*> written;
  auto add = [&](const Expr* arg) {
    Root r = roots.of(arg);
    if (r.kind == Root::Known) written.insert(r.decl);
  };
  if (const auto* m = llvm::dyn_cast<CXXMemberCallExpr>(c.call)) add(m->getImplicitObjectArgument());
  for (unsigned i = 0; i < c.call->getNumArgs() && i < c.ce->params.size(); ++i)
    if (c.ce->params[i].direction != model::Direction::In) add(c.call->getArg(i));
  if (written.empty()) return false;
  const Expr* full = c.call;
  while (const Expr* p = parent_expr(ctx, full)) full = p;
  // Whether `e` lies in the full expression, outside the call.
  auto beside_call = [&](const Expr* e) {
    for (; e; e = parent_expr(ctx, e)) {
      if (e == c.call) return false;
      if (e == full) return true;
    }
    return false;
  };
  for (const auto& ref : facts.refs) {
    const ValueDecl* d = llvm::cast<ValueDecl>(ref.decl->getCanonicalDecl());
    if (const auto* var = llvm::dyn_cast<VarDecl>(d);
        var && var->getType()->isReferenceType() && !llvm::isa<ParmVarDecl>(var)) {
      Root r = roots.of_var(var, ref.node);
      d = r.kind == Root::Known ? r.decl : nullptr;
    }
    if (d && written.count(d) && beside_call(ref.node)) return true;
  }
  return false;
}

}  // namespace cei::instrument
