// ceic --instrument: plans the edits from the collected facts, innermost first, and applies them
// with clang::Rewriter. The rules (docs/instrumenter.md; each rule's test is
// tests/instrumenter/rules/<rule>.cpp):
//   x = ce(a);          -> ::cei::rt::call_into<R>(::cei::rt::out<R>(x, "x", ROOT), CE, ARGS);
//                                                                                 result_assign
//   T x = ce(a);        -> T x{}; ::cei::rt::Scope __cei_scope_x(x); ::cei::rt::call_into<R>(...);
//                                                                               result_declared
//   ce(a);              -> ::cei::rt::call<R>(CE, ARGS);                                void_call
//   f(g(a)) (f, g CEs)  -> g's Pending goes straight into f's task                nested_call
//   f(x) (in, x a variable of exactly the parameter's type) -> in<P>(x), unsynced  scalar_future
//   anything else       -> ::cei::rt::call<R>(CE, ARGS).get()   (waits right there)
//                                                                             waited_expression
//   any call inside a try block -> .get() as well, void ones included (their exception is thrown
//                          at the call, where the sequential program's handlers expect it)
//                                                                                    try_waited
// and every other use of a variable that tasks touch goes through sync / sync_read
// (sync_before_host_read, sync_before_host_write). Arguments: arg_text, roots.hpp (the rows of
// "Arguments and aliases"); guards: plan_guards (scope_guard, sync_at_exit); lambdas:
// plan_lambda_captures (lambda_capture).
#include <cei/instrument/registry_gen.hpp>
#include <cei/instrument/rewrite.hpp>

#include "aliases.hpp"
#include "call_checks.hpp"
#include "ce_index.hpp"
#include "collector.hpp"
#include "edit_set.hpp"
#include "header_reads.hpp"
#include "parse_errors.hpp"
#include "roots.hpp"
#include "throw_points.hpp"

#include <clang/AST/ParentMapContext.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <set>

namespace cei::instrument {

using namespace clang;

namespace {

class Planner {
 public:
  Planner(ASTContext& ctx, const Facts& facts, frontend::Diagnostics& diags, const Options& opts)
      : ctx_(ctx),
        sm_(ctx.getSourceManager()),
        facts_(facts),
        diags_(diags),
        opts_(opts),
        roots_(ctx, facts),
        edits_(sm_.getBufferData(sm_.getMainFileID())) {}

  bool plan();
  const EditSet& edits() const { return edits_; }

 private:
  struct Range {
    unsigned begin = 0, end = 0;
    bool valid = false;
  };
  Range range_of(SourceRange r) const;
  std::string text(SourceRange r) const;  // with the edits made so far
  std::string original_text(SourceRange r) const {
    Range rr = range_of(r);
    return rr.valid
               ? std::string(
                     sm_.getBufferData(sm_.getMainFileID()).substr(rr.begin, rr.end - rr.begin))
               : std::string();
  }
  model::Location location(SourceLocation loc) const;
  void error(SourceLocation loc, const std::string& msg) {
    auto at = location(loc);
    if (reported_.insert({at.file, at.line, at.column}).second) diags_.error(at, msg);
  }

  DynTypedNode parent(const DynTypedNode& n) const {
    auto ps = ctx_.getParents(n);
    return ps.empty() ? DynTypedNode() : ps[0];
  }
  // Climbs from `e` past implicit wrappers; returns the last expression before `out_parent`.
  const Expr* up_implicit(const Expr* e, DynTypedNode& out_parent) const;
  bool statement_position(const Expr* e) const;
  bool in_block(const DeclStmt* d) const {
    DynTypedNode p = parent(DynTypedNode::create(*d));
    return p.get<CompoundStmt>() || p.get<CaseStmt>() || p.get<DefaultStmt>() || p.get<LabelStmt>();
  }
  void replace(Range r, std::string s) {
    if (!dry_) edits_.replace(r.begin, r.end, std::move(s));
  }
  void find_pending();

  std::optional<std::string> root_text(const Root& r, const CeCall& c) const;
  std::string name_arg(const Expr* e, const std::string& root) const;
  void refuse(const Root& r, const CeCall& c, const Expr* arg, const std::string& dir);
  bool binding_fix_it(const Root& r);
  bool conditional_fix_it(const Root& r, const CeCall& c);
  bool by_copy_capture(const Expr* ref, const LambdaExpr* l) const;
  bool only_reads(const Expr* ref) const;

  bool plan_call(const CeCall& c);
  std::string arg_text(const CeCall& c, const Expr* arg, const std::string& dir,
                       const std::string& type, QualType param, bool tracked_dir);
  void track(const Root& r, const CeCall& c);
  void plan_guards();
  void plan_syncs();
  // Reference parameters may alias each other, globals and `this`'s members (step(a, a),
  // f(rows[1], rows)): the syncs a host use of one of them needs for the tasks on the others.
  std::string alias_syncs(const Expr* use, const ValueDecl* decl, bool read, bool task_arg) const;
  const Stmt* body_of(const Expr* e) const;
  // Whether tasks use data of decl that contain the storage at `path` (task_data_enclose), or
  // that contain it or lie inside it (task_data_overlap).
  bool task_data_enclose(const ValueDecl* decl, const std::string& path) const;
  bool task_data_overlap(const ValueDecl* decl, const std::string& path) const;
  void plan_lambda_captures();
  // Uses of pointers, iterators and views into task data (aliases.hpp): wait as the variable.
  void plan_alias_syncs();
  std::string scope_text(const VarDecl* var) const;
  bool between_case_labels(const DeclStmt* d) const;
  bool captured_by_ref(const LambdaExpr* l, const ValueDecl* d) const;
  bool called_only_here(const LambdaExpr* l) const;
  std::string star_this_syncs(const LambdaExpr* l) const;
  std::string member_syncs(const DeclContext* cls, bool read) const;
  void plan_this_derefs();
  void plan_header_calls();
  void plan_throws();

  ASTContext& ctx_;
  SourceManager& sm_;
  const Facts& facts_;
  frontend::Diagnostics& diags_;
  const Options& opts_;
  RootFinder roots_;
  EditSet edits_;
  std::set<std::tuple<std::string, unsigned, unsigned>> reported_;
  std::set<const Expr*> exempt_;  // roots of task arguments and assign targets
  // Iterated to place edits and report errors: ordered by source position, never by address, so
  // the rewritten text and the diagnostics are the same on every run.
  // (A declaration's name, not its begin: `Vec a, b;` declares both at `Vec`.)
  struct SourceOrder {
    static SourceLocation at(const Decl* d) { return d->getLocation(); }
    static SourceLocation at(const Stmt* s) { return s->getBeginLoc(); }
    template <class Node>
    bool operator()(const Node* a, const Node* b) const {
      auto pa = at(a).getRawEncoding(), pb = at(b).getRawEncoding();
      return pa != pb ? pa < pb : std::less<const Node*>()(a, b);
    }
  };
  std::set<const ValueDecl*, SourceOrder> tracked_;
  std::set<const VarDecl*> scoped_;  // already given a Scope by a declaration rewrite
  std::map<const ValueDecl*, std::set<std::string>> paths_;  // root -> paths of its task data
  struct TaskRoot {
    const Expr* node;
    const ValueDecl* decl;
    std::string path;
  };
  std::vector<TaskRoot> task_roots_;
  std::set<const CallExpr*> pending_;  // CE calls whose Pending feeds an outer CE call
  std::map<const Stmt*, std::set<const ValueDecl*, SourceOrder>, SourceOrder>
      exit_guards_;                             // body -> outliving roots
  std::set<const ValueDecl*> lambda_captures_;  // by-reference captures that lambdas' tasks use
  // (lambda body, capture) whose SyncAtExit is left out: the lambda is only called in place.
  std::set<std::pair<const Stmt*, const ValueDecl*>> unguarded_;
  bool dry_ = true;  // the first pass over the calls only finds what tasks touch
};

// The expression that names an outliving root in any function that hands it to tasks: a
// member of `this`, a global or static member by its qualified name (`::data::G`,
// `::Pool::pool`), a parameter or static local by its name.
std::string guard_name(const ValueDecl* d) {
  const std::string n = d->getNameAsString();
  if (llvm::isa<FieldDecl>(d)) return "this->" + n;
  const auto* var = llvm::dyn_cast<VarDecl>(d);
  if (!var || !var->hasGlobalStorage() || var->isStaticLocal()) return n;
  std::string q = var->getQualifiedNameAsString();
  for (std::string anon = "(anonymous namespace)::"; q.find(anon) != std::string::npos;)
    q.erase(q.find(anon), anon.size());
  return "::" + q;
}

Planner::Range Planner::range_of(SourceRange r) const {
  CharSourceRange cr =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
  if (cr.isInvalid() || !sm_.isInMainFile(cr.getBegin())) return {};
  return {sm_.getFileOffset(cr.getBegin()), sm_.getFileOffset(cr.getEnd()), true};
}

std::string Planner::text(SourceRange r) const {
  Range rr = range_of(r);
  return rr.valid ? edits_.render(rr.begin, rr.end) : std::string();
}

model::Location Planner::location(SourceLocation loc) const {
  PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(loc));
  if (p.isInvalid()) return {};
  return {p.getFilename(), p.getLine(), p.getColumn()};
}

const Expr* Planner::up_implicit(const Expr* e, DynTypedNode& out_parent) const {
  for (;;) {
    DynTypedNode p = parent(DynTypedNode::create(*e));
    const auto* pe = p.get<Expr>();
    if (pe && (llvm::isa<ImplicitCastExpr, ExprWithCleanups, MaterializeTemporaryExpr,
                         CXXBindTemporaryExpr, ParenExpr, ConstantExpr>(pe))) {
      e = pe;
      continue;
    }
    out_parent = p;
    return e;
  }
}

bool Planner::statement_position(const Expr* e) const {
  DynTypedNode p;
  e = up_implicit(e, p);
  if (p.get<CompoundStmt>() || p.get<CaseStmt>() || p.get<DefaultStmt>() || p.get<LabelStmt>())
    return true;
  if (const auto* s = p.get<IfStmt>()) return s->getThen() == e || s->getElse() == e;
  if (const auto* s = p.get<ForStmt>()) return s->getBody() == e || s->getInc() == e;
  if (const auto* s = p.get<WhileStmt>()) return s->getBody() == e;
  if (const auto* s = p.get<DoStmt>()) return s->getBody() == e;
  if (const auto* s = p.get<CXXForRangeStmt>()) return s->getBody() == e;
  return false;
}

bool Planner::by_copy_capture(const Expr* ref, const LambdaExpr* l) const {
  const auto* dre = llvm::dyn_cast_or_null<DeclRefExpr>(ref);
  if (!l || !dre || !dre->refersToEnclosingVariableOrCapture()) return false;
  for (const auto& cap : l->captures())
    if (cap.capturesVariable() && cap.getCapturedVar() == dre->getDecl())
      return cap.getCaptureKind() == LCK_ByCopy;
  return false;
}

// Whether a host use only reads: an lvalue-to-rvalue conversion, a const member function, a
// binding to a const reference. Anything else (assignment, ++, &x, non-const call) may write.
bool Planner::only_reads(const Expr* ref) const {
  const Expr* e = ref;
  for (;;) {
    DynTypedNode p = parent(DynTypedNode::create(*e));
    const auto* pe = p.get<Expr>();
    if (!pe) {
      if (const auto* var = p.get<VarDecl>()) {
        QualType t = var->getType();
        return t->isReferenceType() && t.getNonReferenceType().isConstQualified();
      }
      return false;
    }
    if (const auto* cast = llvm::dyn_cast<ImplicitCastExpr>(pe)) {
      if (cast->getCastKind() == CK_LValueToRValue) return true;
      e = pe;  // NoOp (adding const), derived-to-base, array decay
      continue;
    }
    // A branch of `c ? a : b`: the conditional is used as the branch would be.
    if (llvm::isa<ParenExpr, AbstractConditionalOperator>(pe)) {
      e = pe;
      continue;
    }
    if (const auto* m = llvm::dyn_cast<MemberExpr>(pe)) {
      if (const auto* method = llvm::dyn_cast<CXXMethodDecl>(m->getMemberDecl()))
        return method->isConst();
      if (m->isArrow()) return false;
      e = pe;
      continue;
    }
    if (const auto* s = llvm::dyn_cast<ArraySubscriptExpr>(pe)) {
      if (s->getIdx()->IgnoreParenImpCasts() == e) return true;
      e = pe;
      continue;
    }
    if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(pe)) {
      auto k = op->getOperator();
      if ((k == OO_Subscript || k == OO_Call) && op->getArg(0) == e) {
        e = pe;
        continue;
      }
    }
    // An argument: reads when the parameter is a const reference (or taken by value).
    const FunctionDecl* fd = nullptr;
    llvm::ArrayRef<const Expr*> args;
    unsigned shift = 0;
    if (const auto* call = llvm::dyn_cast<CallExpr>(pe)) {
      fd = call->getDirectCallee();
      args = llvm::makeArrayRef(call->getArgs(), call->getNumArgs());
      if (llvm::isa<CXXOperatorCallExpr>(call) && llvm::isa_and_nonnull<CXXMethodDecl>(fd)) {
        if (call->getArg(0) == e) return llvm::cast<CXXMethodDecl>(fd)->isConst();
        shift = 1;
      }
    } else if (const auto* c = llvm::dyn_cast<CXXConstructExpr>(pe)) {
      fd = c->getConstructor();
      args = llvm::makeArrayRef(c->getArgs(), c->getNumArgs());
    }
    if (!fd) return false;
    for (unsigned i = shift; i < args.size(); ++i)
      if (args[i] == e) {
        if (i - shift >= fd->getNumParams()) return false;
        QualType t = fd->getParamDecl(i - shift)->getType();
        return !t->isReferenceType() || t.getNonReferenceType().isConstQualified();
      }
    return false;
  }
}

void Planner::track(const Root& r, const CeCall& c) {
  if (r.kind != Root::Known) return;
  exempt_.insert(r.node);
  tracked_.insert(r.decl);
  paths_[r.decl].insert(r.path);
  if (r.node) task_roots_.push_back({r.node, r.decl, r.path});
  const auto* var = llvm::dyn_cast<VarDecl>(r.decl);
  const bool outlives = !var || var->getType()->isReferenceType() || !var->hasLocalStorage();
  // A variable the lambda captured by reference outlives its body like a reference parameter:
  // whoever calls the lambda (a callback's caller) may read it after the call.
  const bool captured = !outlives && c.lambda && captured_by_ref(c.lambda, r.decl);
  if (outlives || captured) exit_guards_[c.body].insert(r.decl);
  if (captured) {
    lambda_captures_.insert(r.decl);
    if (called_only_here(c.lambda)) unguarded_.insert({c.body, r.decl});
  }
}

bool Planner::captured_by_ref(const LambdaExpr* l, const ValueDecl* d) const {
  for (const auto& cap : l->captures())
    if (cap.capturesVariable() && cap.getCapturedVar()->getCanonicalDecl() == d)
      return cap.getCaptureKind() == LCK_ByRef;
  return false;
}

// A lambda called right where it is made, or held in a local that the same body only calls:
// the body's own later uses of its captures wait for their tasks, so the lambda need not.
bool Planner::called_only_here(const LambdaExpr* l) const {
  DynTypedNode p;
  const Expr* top = up_implicit(l, p);
  const auto called = [&](const Expr* e, const DynTypedNode& parent) {
    const auto* op = parent.get<CXXOperatorCallExpr>();
    return op && op->getOperator() == OO_Call && op->getArg(0) == e;
  };
  if (called(top, p)) return true;
  const auto* var = p.get<VarDecl>();
  if (!var || !var->hasLocalStorage() || var->getType()->isReferenceType() || var->isStaticLocal())
    return false;
  const Stmt* here = body_of(l);
  for (const auto& ref : facts_.refs) {
    if (ref.decl != var) continue;
    DynTypedNode rp;
    const Expr* rtop = up_implicit(ref.node, rp);
    if (!called(rtop, rp) || body_of(ref.node) != here) return false;
  }
  return true;
}

std::string Planner::arg_text(const CeCall& c, const Expr* arg, const std::string& dir,
                              const std::string& type, QualType param, bool tracked_dir) {
  if (llvm::isa<CXXDefaultArgExpr>(arg)) {
    error(c.call->getBeginLoc(), "ceic: a CE call cannot rely on a default argument; pass it");
    return {};
  }
  const Expr* inner = strip_copy(arg);
  if (const auto* call = llvm::dyn_cast<CallExpr>(inner); call && pending_.count(call))
    return "::cei::rt::" + dir + "<" + type + ">(" + text(arg->getSourceRange()) + ")";
  Root r = roots_.of(arg);
  QualType arg_type = inner->getType().getCanonicalType().getUnqualifiedType();
  bool same = arg_type == param.getCanonicalType().getUnqualifiedType();
  bool in_place = tracked_dir || (inner->isGLValue() && same && !param->isArithmeticType());
  if (tracked_dir && !inner->isGLValue()) {
    error(arg->getBeginLoc(), "ceic: the " + dir + " argument of CE '" + c.ce->name +
                                  "' must be a variable, a member or an element");
    return {};
  }
  if (in_place && r.kind == Root::Known && by_copy_capture(r.node, c.lambda)) {
    error(arg->getBeginLoc(), "ceic: CE '" + c.ce->name +
                                  "' called on a variable the lambda captured by copy; capture it "
                                  "by reference or call the CE outside the lambda");
    return {};
  }
  // A variable of exactly an arithmetic parameter's type goes by its address, unsynced: the task
  // takes its pending value if a task writes it, else a copy made at the call (api.hpp's
  // ArgKind::Value). An element or member is not its root's whole datum: that one is synced.
  if (!tracked_dir && same && param->isArithmeticType() && inner->isGLValue() &&
      r.kind == Root::Known && r.whole)
    exempt_.insert(r.node);
  const bool by_value = same && param->isArithmeticType() && inner->isLValue();
  std::string value = text(arg->getSourceRange()), root;
  if (in_place && r.kind != Root::Known) {
    // An `in` the task would read in place, where later host writes would not wait for it: the
    // task gets a copy taken at the call instead, the value the program read there.
    if (!tracked_dir && !r.through_pointer)
      return "::cei::rt::in<" + type + ">(static_cast<" + type + ">(static_cast<const " + type +
             "&>(" + value + ")))";
    refuse(r, c, arg, dir);
    return {};
  }
  // `vbump(ROW(1))` with `#define ROW(i) rows[i]`: the root's name lies in the macro's body,
  // where the rewrite cannot quote it. (A macro argument, `BUMP(rows[i], k)`, is spelled in the
  // file and quoted as usual.) An `in` is copied at the call instead.
  if (in_place && !r.whole && r.origin && r.origin == r.node &&
      original_text(r.origin->getSourceRange()).empty()) {
    if (!tracked_dir)
      return "::cei::rt::in<" + type + ">(static_cast<" + type + ">(static_cast<const " + type +
             "&>(" + value + ")))";
    SourceLocation in_macro = r.origin->getBeginLoc();
    llvm::StringRef macro = in_macro.isMacroID()
                                ? Lexer::getImmediateMacroName(in_macro, sm_, ctx_.getLangOpts())
                                : llvm::StringRef("?");
    error(arg->getBeginLoc(), "ceic: the " + dir + " argument of CE '" + c.ce->name +
                                  "' is written with the macro '" + macro.str() +
                                  "': ceic cannot name there the variable it lies under, so "
                                  "later host uses would not wait for the task; write the "
                                  "element or member out (e.g. 'rows[1]') "
                                  "[ceic-untracked-argument]");
    return {};
  }
  if (in_place) {
    if (!r.whole) {
      auto name = root_text(r, c);
      if (!name) {
        error(arg->getBeginLoc(),
              "ceic: the " + dir + " argument of CE '" + c.ce->name + "' lies under '" +
                  r.decl->getNameAsString() +
                  "', which that name does not reach here; pass an element of it named "
                  "directly [ceic-untracked-argument]");
        return {};
      }
      root = ", &(" + *name + ")";
    }
    // `std::move(v)` read in place: the task reads v, and nothing moves from it (as in the
    // program, whose CE takes a const reference).
    if (!tracked_dir && inner->isXValue())
      value = "static_cast<const " + type + "&>(" + value + ")";
    if (auto inlined = task_data_overlap(r.decl, r.path)
                           ? std::nullopt
                           : roots_.inlined_lambda_call(
                                 arg, {c.function, c.lambda},
                                 [&](const Expr* e) { return text(e->getSourceRange()); }))
      value = *inlined;
    track(r, c);
  }
  if (in_place || by_value) root = name_arg(arg, root);
  return "::cei::rt::" + dir + "<" + type + ">(" + value + root + ")";
}

// `, "C[i]"`, the argument as the program wrote it (api.hpp's `name`: what traces and graphs call
// its data), then `root` (`, &(C)`); `, nullptr` where the file holds no text for it (a macro's).
std::string Planner::name_arg(const Expr* e, const std::string& root) const {
  std::string literal;
  bool space = false;
  for (char ch : original_text(e->getSourceRange())) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      space = true;  // one line, however the call was laid out
      continue;
    }
    if (space && !literal.empty()) literal += ' ';
    space = false;
    if (ch == '"' || ch == '\\') literal += '\\';
    literal += ch;
  }
  if (!literal.empty()) return ", \"" + literal + "\"" + root;
  return root.empty() ? root : ", nullptr" + root;
}

std::optional<std::string> Planner::root_text(const Root& r, const CeCall& c) const {
  if (r.origin && r.origin == r.node) return original_text(r.origin->getSourceRange());
  return roots_.name_at(r, {c.function, c.lambda});
}

void Planner::refuse(const Root& r, const CeCall& c, const Expr* arg, const std::string& dir) {
  const std::string what = r.kind == Root::Opaque ? r.why : "an expression ceic cannot trace";
  error(arg->getBeginLoc(), "ceic: the " + dir + " argument of CE '" + c.ce->name + "' is " + what +
                                ": ceic cannot tell which variable the task " +
                                (dir == "in" ? "reads" : "writes") +
                                ", so later host uses would not wait for it; " +
                                RootFinder::advice(r) + " [ceic-untracked-argument]");
  if (binding_fix_it(r) || conditional_fix_it(r, c)) return;
  // `*p` where p was set to `&x`: x, if p still points there.
  const auto* deref = llvm::dyn_cast_or_null<UnaryOperator>(r.at);
  const auto* ptr = deref && deref->getOpcode() == UO_Deref
                        ? llvm::dyn_cast<DeclRefExpr>(deref->getSubExpr()->IgnoreParenImpCasts())
                        : nullptr;
  const auto* var = ptr ? llvm::dyn_cast<VarDecl>(ptr->getDecl()) : nullptr;
  const auto* init = var && var->hasLocalStorage() && !llvm::isa<ParmVarDecl>(var)
                         ? llvm::dyn_cast_or_null<UnaryOperator>(
                               var->getInit() ? var->getInit()->IgnoreParenImpCasts() : nullptr)
                         : nullptr;
  if (!init || init->getOpcode() != UO_AddrOf || roots_.of(init->getSubExpr()).kind != Root::Known)
    return;
  const std::string target = original_text(init->getSubExpr()->getSourceRange());
  if (target.empty()) return;
  diags_.note(location(deref->getBeginLoc()),
              "fix-it: replace '" + original_text(deref->getSourceRange()) + "' with '" + target +
                  "' ('" + var->getNameAsString() + "' was set to '&" + target + "' at line " +
                  std::to_string(location(var->getLocation()).line) +
                  "; only if it still points there)");
}

// `ce(c ? a : b, x);` as a statement, a and b lvalues ceic roots: one call in each branch.
bool Planner::conditional_fix_it(const Root& r, const CeCall& c) {
  const auto* cond = llvm::dyn_cast_or_null<ConditionalOperator>(r.at);
  if (!cond || !statement_position(c.call) || roots_.of(cond->getTrueExpr()).kind != Root::Known ||
      roots_.of(cond->getFalseExpr()).kind != Root::Known)
    return false;
  Range call = range_of(c.call->getSourceRange()), at = range_of(cond->getSourceRange());
  if (!call.valid || !at.valid || at.begin < call.begin || at.end > call.end) return false;
  const std::string text = original_text(c.call->getSourceRange());
  const auto with = [&](const Expr* branch) {
    return text.substr(0, at.begin - call.begin) + original_text(branch->getSourceRange()) +
           text.substr(at.end - call.begin);
  };
  diags_.note(location(cond->getBeginLoc()),
              "fix-it: write the call as 'if (" + original_text(cond->getCond()->getSourceRange()) +
                  ") " + with(cond->getTrueExpr()) + "; else " + with(cond->getFalseExpr()) + ";'");
  return true;
}

// `a` of `auto& [a, b] = pr`, pr a variable (or an element or member of one) of a std::pair or of
// a class without bases: the member it names, `pr.first`.
bool Planner::binding_fix_it(const Root& r) {
  const auto* ref = llvm::dyn_cast_or_null<DeclRefExpr>(r.at);
  const auto* binding = ref ? llvm::dyn_cast<BindingDecl>(ref->getDecl()) : nullptr;
  const auto* holder =
      binding ? llvm::dyn_cast_or_null<DecompositionDecl>(binding->getDecomposedDecl()) : nullptr;
  const Expr* init = holder && holder->getType()->isReferenceType() && holder->getInit()
                         ? holder->getInit()->IgnoreParenImpCasts()
                         : nullptr;
  const auto* cls = init ? init->getType()->getAsCXXRecordDecl() : nullptr;
  if (!cls || !cls->hasDefinition() || roots_.of(init).kind != Root::Known) return false;
  const bool pair = cls->isInStdNamespace() && cls->getName() == "pair";
  if (!pair && (cls->getNumBases() > 0 || binding->getHoldingVar())) return false;
  auto bindings = holder->bindings();
  auto at = std::find(bindings.begin(), bindings.end(), binding);
  if (at == bindings.end()) return false;
  auto field = cls->field_begin();
  for (auto i = at - bindings.begin(); i > 0 && field != cls->field_end(); --i) ++field;
  const std::string object = original_text(init->getSourceRange());
  if (field == cls->field_end() || object.empty()) return false;
  const std::string target = object + "." + field->getNameAsString();
  diags_.note(location(ref->getBeginLoc()),
              "fix-it: replace '" + binding->getNameAsString() + "' with '" + target + "' ('" +
                  binding->getNameAsString() + "' is bound to it at line " +
                  std::to_string(location(binding->getLocation()).line) + ")");
  return true;
}

bool Planner::plan_call(const CeCall& c) {
  const auto& ce = *c.ce;
  const std::string name = ce.interface_name + "::" + ce.name;
  if (c.templated) {
    error(c.call->getBeginLoc(), "ceic: call of CE '" + ce.name +
                                     "' inside a template or generic lambda is not supported; "
                                     "call it from a non-template function");
    return false;
  }
  for (const auto& refused :
       {virtual_call(c), destructor_call(c), aliased_arguments(c, roots_, ctx_)})
    if (refused) {
      error(refused->at->getBeginLoc(), refused->message);
      return false;
    }
  Range call_range = range_of(c.call->getSourceRange());
  if (!call_range.valid) {
    error(c.call->getBeginLoc(), "ceic: call of CE '" + ce.name +
                                     "' inside a macro expansion cannot be rewritten; call it "
                                     "outside the macro");
    return false;
  }
  const auto* member_call = llvm::dyn_cast<CXXMemberCallExpr>(c.call);
  unsigned nargs = c.call->getNumArgs();
  if (nargs != ce.params.size() || c.native->getNumParams() != nargs) {
    error(c.call->getBeginLoc(), "ceic: call of CE '" + ce.name + "' does not match its CEI (" +
                                     std::to_string(ce.params.size()) + " parameters)");
    return false;
  }
  std::vector<std::string> args;
  if (member_call) {
    const Expr* obj = member_call->getImplicitObjectArgument();
    const auto* callee = llvm::cast<MemberExpr>(member_call->getCallee()->IgnoreParens());
    if (llvm::isa<CXXThisExpr>(obj->IgnoreParenImpCasts())) {
      error(c.call->getBeginLoc(), "ceic: call of instance CE '" + ce.name +
                                       "' on 'this' is not supported; call it on an object "
                                       "from outside the class");
      return false;
    }
    // `Counter{}.bump(1)`: the object is a temporary materialized for the call (an xvalue).
    if (!obj->IgnoreParenImpCasts()->isGLValue() && !callee->isArrow()) {
      error(c.call->getBeginLoc(), "ceic: instance CE '" + ce.name +
                                       "' called on a temporary; store the object in a variable");
      return false;
    }
    std::string self = ce.versions.empty() ? "void" : ce.versions[0].declaring_class;
    if (callee->isArrow()) {
      Root through;
      through.kind = Root::Opaque;
      through.why = "an object reached through a pointer";
      through.through_pointer = true;
      refuse(through, c, obj, "inout");
      return false;
    } else {
      QualType cls = ctx_.getRecordType(llvm::cast<CXXMethodDecl>(c.native)->getParent());
      args.push_back(arg_text(c, obj, "inout", self, cls, true));
    }
  }
  for (unsigned i = 0; i < nargs; ++i) {
    const auto& p = ce.params[i];
    const char* dir = p.direction == model::Direction::Out     ? "out"
                      : p.direction == model::Direction::InOut ? "inout"
                                                               : "in";
    QualType param = c.native->getParamDecl(i)->getType().getNonReferenceType();
    args.push_back(arg_text(c, c.call->getArg(i), dir, p.type.spelling, param,
                            p.direction != model::Direction::In));
  }
  const std::string result = ce.result.kind == model::TypeKind::Void ? "void" : ce.result.spelling;
  std::string arg_list = ce_symbol(ce);
  for (const auto& a : args) arg_list += ", " + a;
  const std::string call = "::cei::rt::call<" + result + ">(" + arg_list + ")";
  // The result goes straight to its variable, `into` an out of it, which names it.
  const auto call_into = [&](const std::string& into) {
    return "::cei::rt::call_into<" + result + ">(::cei::rt::out<" + result + ">(" + into + "), " +
           arg_list + ")";
  };

  QualType r_type = c.native->getReturnType().getCanonicalType().getUnqualifiedType();
  DynTypedNode p;
  const Expr* top = up_implicit(c.call, p);
  // x = ce(...);
  const Expr* lhs = nullptr;
  const Expr* assignment = nullptr;
  if (const auto* bo = p.get<BinaryOperator>(); bo && bo->getOpcode() == BO_Assign) {
    lhs = bo->getLHS();
    assignment = bo;
  } else if (const auto* op = p.get<CXXOperatorCallExpr>();
             op && op->getOperator() == OO_Equal && op->getNumArgs() == 2 && op->getArg(1) == top) {
    lhs = op->getArg(0);
    assignment = op;
  }
  // Inside a try block, the forms that do not wait are off: the call waits right there. A target
  // in an object the task writes (`acc.total = acc.compute(3)`) is assigned by the host once the
  // task's write is back (call_synced below): the two writes would otherwise race.
  if (assignment && !c.in_try && result != "void" && statement_position(assignment) &&
      lhs->getType().getCanonicalType() == r_type && lhs->isLValue() &&
      !host_uses_outputs(ctx_, facts_, roots_, c)) {
    // A target whose root the analysis cannot name is assigned by the host after a wait.
    Root r = roots_.of(lhs);
    std::optional<std::string> root_name;
    if (r.kind == Root::Known && !r.whole) root_name = root_text(r, c);
    if (r.kind == Root::Known && (r.whole || root_name)) {
      track(r, c);
      std::string root = root_name ? ", &(" + *root_name + ")" : "";
      Range ar = range_of(assignment->getSourceRange());
      if (ar.valid) {
        std::string target =
            roots_
                .inlined_lambda_call(lhs, {c.function, c.lambda},
                                     [&](const Expr* e) { return text(e->getSourceRange()); })
                .value_or(text(lhs->getSourceRange()));
        replace(call_range, call_into(target + name_arg(lhs, root)));
        replace(ar, text(c.call->getSourceRange()));
        return true;
      }
    }
  }
  // T x = ce(...);
  if (const auto* var = p.get<VarDecl>(); var && !llvm::isa<DecompositionDecl>(var) && !c.in_try &&
                                          result != "void" && var->hasLocalStorage() &&
                                          !var->getType().isConstQualified() &&
                                          var->getType().getCanonicalType() == r_type) {
    auto it = facts_.decl_stmt.find(var);
    if (it != facts_.decl_stmt.end() && it->second->isSingleDecl() && in_block(it->second)) {
      Range dr = range_of(it->second->getSourceRange());
      if (dr.valid) {
        const std::string n = var->getNameAsString();
        replace(call_range, call_into(n + ", \"" + n + "\""));
        replace(dr, result + " " + n + "{};" + scope_text(var) + " " +
                        text(c.call->getSourceRange()) + ";");
        tracked_.insert(var);
        paths_[var].insert("");  // the task writes all of it: later elements of it overlap
        scoped_.insert(var);
        return true;
      }
    }
  }
  // A Pending that feeds an outer CE call is waited for through that call (at it, in a try block).
  // A call as a statement of a CE that writes no argument (its result, if any, dropped) is
  // observed by nothing but its exception: waited for at the call, so that one it throws stops
  // the code after it, as in the sequential program.
  const bool writes =
      !ce.is_static || std::any_of(ce.params.begin(), ce.params.end(), [](const auto& p) {
        return p.direction != model::Direction::In;
      });
  if (pending_.count(c.call) || (!c.in_try && writes && statement_position(c.call)))
    replace(call_range, call);
  else if (host_uses_outputs(ctx_, facts_, roots_, c))
    replace(call_range, "::cei::rt::call_synced<" + result + ">(" + arg_list + ")");
  else
    replace(call_range, call + ".get()");
  return true;
}

// f(g(x)) with f and g CEs: g's result goes to f's task as a Pending when f takes it as `in` of
// exactly g's result type.
void Planner::find_pending() {
  std::map<const CallExpr*, const CeCall*> by_call;
  for (const auto& c : facts_.calls) by_call[c.call] = &c;
  for (const auto& c : facts_.calls) {
    DynTypedNode p;
    const Expr* top = up_implicit(c.call, p);
    const auto* outer_call = p.get<CallExpr>();
    auto it = outer_call ? by_call.find(outer_call) : by_call.end();
    if (it == by_call.end()) continue;
    const CeCall& outer = *it->second;
    for (unsigned i = 0; i < outer_call->getNumArgs() && i < outer.ce->params.size(); ++i) {
      if (outer_call->getArg(i) != top || outer.ce->params[i].direction != model::Direction::In)
        continue;
      QualType param = outer.native->getParamDecl(i)->getType().getNonReferenceType();
      if (param.getCanonicalType().getUnqualifiedType() ==
          c.native->getReturnType().getCanonicalType().getUnqualifiedType())
        pending_.insert(c.call);
    }
  }
}

// Whether `outer`, a path of steps ("[]", ".f"), leads to a container of what `inner` leads to.
bool encloses(const std::string& outer, const std::string& inner) {
  return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
         (inner[outer.size()] == '[' || inner[outer.size()] == '.');
}

bool Planner::task_data_enclose(const ValueDecl* decl, const std::string& path) const {
  auto it = paths_.find(decl);
  if (it == paths_.end()) return false;
  for (const auto& p : it->second)
    if (encloses(p, path)) return true;
  return false;
}

bool Planner::task_data_overlap(const ValueDecl* decl, const std::string& path) const {
  if (task_data_enclose(decl, path)) return true;
  auto it = paths_.find(decl);
  if (it == paths_.end()) return false;
  for (const auto& p : it->second)
    if (encloses(path, p)) return true;
  return false;
}

void Planner::plan_syncs() {
  // `auto& a = A[i]` and `for (auto& a : A)` only compute where A's element is: unless tasks
  // use a container of it (A itself), the binding waits for nothing, and uses of `a` wait for
  // the element's own tasks.
  std::set<const Expr*> bindings;
  auto binding = [&](const Expr* init, const std::string& step) {
    Root r = roots_.of(init);
    if (r.kind == Root::Known && r.node && tracked_.count(r.decl) &&
        !task_data_enclose(r.decl, r.path + step))
      bindings.insert(r.node);
  };
  for (const auto& [var, stmt] : facts_.decl_stmt)
    if (var->getType()->isReferenceType() && var->hasLocalStorage() && var->getInit() &&
        !facts_.range_for_init.count(var))
      binding(var->getInit(), "");
  // A loop variable that is a copy (`for (DVec r : rows)`, `for (double x : xs)`) is no alias:
  // the range is a use of its variable at the loop, a read unless the loop variable is a
  // non-const reference through which the body may write.
  std::set<const Expr*> read_ranges;
  for (const auto& [var, range] : facts_.range_for_init) {
    QualType t = var->getType();
    if (t->isReferenceType()) binding(range, "[]");
    if (!t->isReferenceType() || t.getNonReferenceType().isConstQualified()) {
      Root r = roots_.of(range);
      if (r.kind == Root::Known && r.node) read_ranges.insert(r.node);
    }
  }

  for (const auto& ref : facts_.refs) {
    if (ref.templated || by_copy_capture(ref.node, ref.lambda)) continue;
    if (bindings.count(ref.node)) continue;
    if (exempt_.count(ref.node)) {
      // A task argument's root: the runtime orders it after the tasks on the same object, but
      // not after those on an object that contains it or lies inside it (another type).
      const ValueDecl* decl = llvm::cast<ValueDecl>(ref.decl->getCanonicalDecl());
      if (const auto* var = llvm::dyn_cast<VarDecl>(decl);
          var && var->getType()->isReferenceType() && !llvm::isa<ParmVarDecl>(var)) {
        Root r = roots_.of_var(var, ref.node);
        decl = r.kind == Root::Known ? r.decl : nullptr;
      }
      Range r = range_of(ref.node->getSourceRange());
      std::string pre = decl ? alias_syncs(ref.node, decl, only_reads(ref.node), true) : "";
      if (!pre.empty() && r.valid)
        edits_.replace(r.begin, r.end, "(" + pre + edits_.render(r.begin, r.end) + ")");
      continue;
    }
    // `[x]`: the copy is taken where the lambda is made (plan_lambda_captures); a class's copy
    // sits under its copy constructor.
    DynTypedNode p;
    const Expr* top = up_implicit(ref.node, p);
    if (const auto* copy = p.get<CXXConstructExpr>();
        copy && copy->getNumArgs() == 1 && copy->getArg(0) == top)
      up_implicit(copy, p);
    if (p.get<LambdaExpr>()) continue;
    const ValueDecl* decl = llvm::cast<ValueDecl>(ref.decl->getCanonicalDecl());
    // `a` of `auto& [a, b] = pr`: a use of pr's part, which the binding does not name (it may be
    // a member, or what get<0>(pr) returns): it waits for all of pr's tasks. (A binding of a
    // copy, `auto [a, b] = pr`, uses the copy: the declaration read pr.)
    bool structured = false;
    if (const auto* b = llvm::dyn_cast<BindingDecl>(decl)) {
      const auto* holder = llvm::dyn_cast_or_null<VarDecl>(b->getDecomposedDecl());
      if (!holder || !holder->getType()->isReferenceType()) continue;
      decl = holder;
      structured = true;
    }
    // A use of `a` bound to A's element waits for the element's tasks; where tasks also use a
    // container of it or parts of it (other data under A), for all of A's.
    std::string whole_first;
    if (const auto* var = llvm::dyn_cast<VarDecl>(decl);
        var && var->getType()->isReferenceType() && !llvm::isa<ParmVarDecl>(var)) {
      Root r = roots_.of_var(var, ref.node);
      if (r.kind != Root::Known) continue;
      decl = r.decl;
      const bool all = structured || r.aggregate || task_data_overlap(decl, r.path);
      if (tracked_.count(decl) && all)
        whole_first = r.origin ? original_text(r.origin->getSourceRange())
                               : roots_.name_at(r, {nullptr, nullptr}).value_or("");
      if (tracked_.count(decl) && all && whole_first.empty()) {
        error(ref.node->getBeginLoc(),
              "ceic: '" + ref.decl->getNameAsString() + "' is bound to part of '" +
                  decl->getNameAsString() +
                  "', and tasks use other parts of it that overlap; use '" +
                  decl->getNameAsString() + "' directly [ceic-untracked-alias]");
        continue;
      }
    }
    const bool read = only_reads(ref.node) || read_ranges.count(ref.node);
    const std::string pre = alias_syncs(ref.node, decl, read, false);
    if (!tracked_.count(decl) && pre.empty()) continue;
    Range r = range_of(ref.node->getSourceRange());
    if (!r.valid) {
      error(ref.node->getBeginLoc(),
            "ceic: a variable that tasks use is referenced inside a "
            "macro body; pass it to the macro as an argument");
      continue;
    }
    std::string fn = read ? "::cei::rt::sync_read(" : "::cei::rt::sync(";
    std::string use = edits_.render(r.begin, r.end);
    if (tracked_.count(decl))
      use = whole_first.empty() ? fn + use + ")" : "((void)" + fn + whole_first + "), " + use + ")";
    edits_.replace(r.begin, r.end, pre.empty() ? use : "(" + pre + use + ")");
  }
}

const Stmt* Planner::body_of(const Expr* e) const {
  DynTypedNode n = DynTypedNode::create(*e);
  for (int guard = 0; guard < 10000; ++guard) {
    auto ps = ctx_.getParents(n);
    if (ps.empty()) return nullptr;
    n = ps[0];
    if (const auto* l = n.get<LambdaExpr>()) return l->getBody();
    if (const auto* fd = n.get<FunctionDecl>()) return fd->getBody();
  }
  return nullptr;
}

// A reference parameter may be bound to another reference parameter, to (part of) a global or to
// (part of) the object `this` points to; distinct globals, and distinct members of `this`, never
// overlap, and a static local is not named before its declaration: those are left out. A use of
// one of them in a body whose tasks use another waits for the other's tasks first (`sync_read`
// for a read, `sync` for a write). A task argument needs that only where the two differ in type
// (one may contain the other); the runtime orders tasks on the same object by its address.
std::string Planner::alias_syncs(const Expr* use, const ValueDecl* decl, bool read,
                                 bool task_arg) const {
  auto it = exit_guards_.find(body_of(use));
  if (it == exit_guards_.end()) return {};
  // A lambda's by-reference capture may be the object one of its reference parameters is bound
  // to (`f(a)` of `[&a](const V& s)`): it pairs with those.
  enum { No, RefParam, Member, Global, Capture };
  const auto* use_ref = llvm::dyn_cast<DeclRefExpr>(use);
  auto kind = [&](const ValueDecl* d) {
    if (llvm::isa<FieldDecl>(d)) return Member;
    const auto* v = llvm::dyn_cast<VarDecl>(d);
    if (!v) return No;
    if (llvm::isa<ParmVarDecl>(v)) return v->getType()->isReferenceType() ? RefParam : No;
    if (v->hasGlobalStorage() && !v->isStaticLocal()) return Global;
    const bool capture = d == decl ? use_ref && use_ref->refersToEnclosingVariableOrCapture()
                                   : lambda_captures_.count(d) > 0;
    return capture ? Capture : No;
  };
  auto type = [](const ValueDecl* d) {
    return d->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType();
  };
  const auto kd = kind(decl);
  if (kd == No) return {};
  std::string out;
  for (const ValueDecl* p : it->second) {
    const auto kp = kind(p);
    if (p == decl || kp == No) continue;
    if (kp != RefParam && kd != RefParam && !(kp == Member && kd == Global) &&
        !(kp == Global && kd == Member))
      continue;
    if (task_arg && type(p) == type(decl)) continue;
    out +=
        std::string("(void)::cei::rt::") + (read ? "sync_read(" : "sync(") + guard_name(p) + "), ";
  }
  return out;
}

// A lambda that copies a variable tasks write takes the copy when it is created: wait there.
void Planner::plan_lambda_captures() {
  std::vector<const LambdaExpr*> lambdas = facts_.lambdas;
  auto size = [&](const LambdaExpr* l) {
    Range r = range_of(l->getSourceRange());
    return r.end - r.begin;
  };
  std::stable_sort(lambdas.begin(), lambdas.end(),
                   [&](auto* a, auto* b) { return size(a) < size(b); });
  for (const auto* l : lambdas) {
    std::string syncs;
    for (const auto& cap : l->captures())
      if (cap.capturesVariable() && cap.getCaptureKind() == LCK_ByCopy &&
          tracked_.count(cap.getCapturedVar()))
        syncs += "(void)::cei::rt::sync_read(" + cap.getCapturedVar()->getNameAsString() + "), ";
    syncs += star_this_syncs(l);
    Range r = range_of(l->getSourceRange());
    if (syncs.empty() || !r.valid) continue;
    edits_.replace(r.begin, r.end, "(" + syncs + edits_.render(r.begin, r.end) + ")");
  }
}

void Planner::plan_alias_syncs() {
  std::set<const ValueDecl*> tracked(tracked_.begin(), tracked_.end());
  const auto aliases = pointer_aliases(facts_, roots_, tracked);
  const auto reads = [&](const Expr* e) { return only_reads(e); };
  for (const auto& ref : facts_.refs) {
    const auto* var = llvm::dyn_cast<VarDecl>(ref.decl);
    auto it = var ? aliases.find(var) : aliases.end();
    if (it == aliases.end() || ref.templated) continue;
    const PointeeAccess a = pointee_access(ctx_, ref.node, reads, aliases);
    if (a == PointeeAccess::None) continue;
    const Site site = site_of(ctx_, ref.node);
    std::set<const ValueDecl*, SourceOrder> roots(it->second.begin(), it->second.end());
    std::string pre;
    const ValueDecl* unnamed = nullptr;
    for (const ValueDecl* root : roots) {
      Root r;
      r.kind = Root::Known;
      r.decl = root;
      auto name = roots_.name_at(r, site);
      if (!name) unnamed = root;
      pre += std::string("(void)::cei::rt::") +
             (a == PointeeAccess::Read ? "sync_read(" : "sync(") + name.value_or("") + "), ";
    }
    if (unnamed) {
      const std::string n = unnamed->getNameAsString();
      error(ref.node->getBeginLoc(),
            "ceic: '" + var->getNameAsString() + "' points into '" + n +
                "', which tasks write, and that name does not reach here; capture '" + n +
                "' by reference, or call cei::wait_on(" + n +
                ") before this use runs [ceic-untracked-alias]");
      continue;
    }
    Range r = range_of(ref.node->getSourceRange());
    if (!r.valid) {
      error(ref.node->getBeginLoc(),
            "ceic: '" + var->getNameAsString() +
                "' points into data that tasks use and is referenced inside a macro body; pass "
                "it to the macro as an argument");
      continue;
    }
    edits_.replace(r.begin, r.end, "(" + pre + edits_.render(r.begin, r.end) + ")");
  }
}

// `h()`, an inline function of a header that reads a global whose tasks this body started: ceic
// rewrites nothing in the header, so the call waits for them first. The edits are an insertion
// at the call's start and its closing parenthesis, so that edits inside the call and around it
// nest with them in any order.
void Planner::plan_header_calls() {
  std::set<const CallExpr*> ce_calls;
  for (const auto& c : facts_.calls) ce_calls.insert(c.call);
  for (const auto& h : header_calls(ctx_)) {
    auto it = ce_calls.count(h.call) ? exit_guards_.end() : exit_guards_.find(body_of(h.call));
    if (it == exit_guards_.end()) continue;
    std::string syncs;
    for (const ValueDecl* d : it->second)
      if (const auto* var = llvm::dyn_cast<VarDecl>(d); var && h.globals.count(var))
        syncs += "(void)::cei::rt::sync(" + guard_name(var) + "), ";
    Range call = range_of(h.call->getSourceRange());
    Range paren = range_of(SourceRange(h.call->getRParenLoc(), h.call->getRParenLoc()));
    if (syncs.empty() || !call.valid || !paren.valid || paren.end != call.end) continue;
    edits_.insert(call.begin, "(" + syncs);
    edits_.replace(paren.begin, paren.end, edits_.render(paren.begin, paren.end) + ")");
  }
}

// `throw X;` as a statement: `::cei::rt::before_throw(), throw X;` (a comma, so that it stays one
// statement under an `if` without braces). A throw inside an expression (`c ? a : throw e`)
// keeps its form: its exception surfaces at the next sync, as docs/instrumenter.md says.
void Planner::plan_throws() {
  for (const CXXThrowExpr* t : throw_points(ctx_)) {
    if (!statement_position(t)) continue;
    Range r = range_of(SourceRange(t->getThrowLoc(), t->getThrowLoc()));
    if (r.valid) edits_.insert(r.begin, "::cei::rt::before_throw(), ");
  }
}

// `[*this]` copies the object where the lambda is made: its members that tasks write are read
// there.
std::string Planner::star_this_syncs(const LambdaExpr* l) const {
  const auto star = [](const LambdaCapture& cap) {
    return cap.capturesThis() && cap.getCaptureKind() == LCK_StarThis;
  };
  if (std::none_of(l->capture_begin(), l->capture_end(), star)) return {};
  const DeclContext* cls = l->getLambdaClass()->getParent();  // the function that makes it
  while (cls && !(llvm::isa<CXXRecordDecl>(cls) && !llvm::cast<CXXRecordDecl>(cls)->isLambda()))
    cls = cls->getParent();
  return member_syncs(cls, true);
}

// The syncs of cls's members that tasks use, before a use of the whole object.
std::string Planner::member_syncs(const DeclContext* cls, bool read) const {
  std::string syncs;
  for (const ValueDecl* d : tracked_)
    if (const auto* field = llvm::dyn_cast<FieldDecl>(d); field && field->getParent() == cls)
      syncs += std::string("(void)::cei::rt::") + (read ? "sync_read(" : "sync(") +
               guard_name(field) + "), ";
  return syncs;
}

// `*this` (`Model copy = *this;`, `[self = *this]`, `save(*this)`) uses the whole object: its
// members that tasks use are synced first, as `[*this]`'s are.
void Planner::plan_this_derefs() {
  std::set<const Expr*> star_captures;  // `[*this]`'s own `*this`: plan_lambda_captures syncs
  for (const LambdaExpr* l : facts_.lambdas)
    for (unsigned i = 0; i < l->capture_size(); ++i)
      if (l->capture_begin()[i].capturesThis() &&
          l->capture_begin()[i].getCaptureKind() == LCK_StarThis && l->capture_init_begin()[i]) {
        const Expr* e = l->capture_init_begin()[i]->IgnoreImplicit();
        for (const auto* copy = llvm::dyn_cast<CXXConstructExpr>(e); copy && copy->getNumArgs();
             copy = llvm::dyn_cast<CXXConstructExpr>(e))
          e = copy->getArg(0)->IgnoreImplicit();
        star_captures.insert(e);
      }
  for (const UnaryOperator* op : facts_.this_derefs) {
    if (star_captures.count(op)) continue;
    const auto* cls = op->getType()->getAsCXXRecordDecl();
    Range r = range_of(op->getSourceRange());
    std::string syncs = cls ? member_syncs(cls, only_reads(op)) : "";
    if (syncs.empty() || !r.valid) continue;
    edits_.replace(r.begin, r.end, "(" + syncs + edits_.render(r.begin, r.end) + ")");
  }
}

// Whether destroying an object of type t runs a destructor the program wrote (of its class, a
// base or a member), which may read what tasks wrote to it.
bool user_destructor(QualType t, int depth = 0) {
  const auto* cls = t->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!cls || !cls->hasDefinition() || cls->isInStdNamespace() || depth > 8) return false;
  if (const auto* d = cls->getDestructor(); d && d->isUserProvided()) return true;
  for (const auto& base : cls->bases())
    if (user_destructor(base.getType(), depth + 1)) return true;
  for (const auto* field : cls->fields())
    if (user_destructor(field->getType(), depth + 1)) return true;
  return false;
}

// A declaration in a switch's body with a case label after it: a jump to that label would cross
// the initialization of the guard declared after it (g++ refuses it; a plain `long s;` it allows).
bool Planner::between_case_labels(const DeclStmt* d) const {
  DynTypedNode n = DynTypedNode::create(*d);
  for (DynTypedNode p = parent(n); p.get<SwitchCase>(); p = parent(p)) n = p;
  const auto* block = parent(n).get<CompoundStmt>();
  if (!block || !parent(DynTypedNode::create(*block)).get<SwitchStmt>()) return false;
  const Stmt* top = n.get<Stmt>();
  auto at = std::find(block->body_begin(), block->body_end(), top);
  return at != block->body_end() && std::any_of(at + 1, block->body_end(), [](const Stmt* s) {
           return llvm::isa<SwitchCase>(s);
         });
}

// The guard after a local's declaration: its data are forgotten when it dies; when a destructor
// of the program's reads it then, they are brought up to date first (the SyncAtExit, declared
// after the Scope, ends before it).
std::string Planner::scope_text(const VarDecl* var) const {
  const std::string n = var->getNameAsString();
  std::string guard = " ::cei::rt::Scope __cei_scope_" + n + "(" + n + ");";
  if (user_destructor(var->getType()))
    guard += " ::cei::rt::SyncAtExit __cei_kept_" + n + "(" + n + ");";
  return guard;
}

void Planner::plan_guards() {
  auto body_start = [&](const Stmt* body) -> std::optional<unsigned> {
    // A function-try-block: its try block, the only block of the body (the guards end before
    // the handlers run).
    if (const auto* t = llvm::dyn_cast_or_null<CXXTryStmt>(body)) body = t->getTryBlock();
    const auto* block = llvm::dyn_cast_or_null<CompoundStmt>(body);
    if (!block) return std::nullopt;
    Range r = range_of(SourceRange(block->getLBracLoc(), block->getLBracLoc()));
    if (!r.valid) return std::nullopt;
    return r.end;
  };
  for (const ValueDecl* decl : tracked_) {
    const auto* var = llvm::dyn_cast<VarDecl>(decl);
    if (!var || !var->hasLocalStorage() || var->getType()->isReferenceType() || scoped_.count(var))
      continue;
    const std::string n = var->getNameAsString();
    if (const auto* parm = llvm::dyn_cast<ParmVarDecl>(var)) {
      const auto* fn = llvm::dyn_cast<FunctionDecl>(parm->getDeclContext());
      if (auto at = body_start(fn ? fn->getBody() : nullptr)) edits_.insert(*at, scope_text(var));
      continue;
    }
    auto it = facts_.decl_stmt.find(var);
    if (it == facts_.decl_stmt.end()) continue;
    if (between_case_labels(it->second)) {
      error(var->getLocation(), "ceic: variable '" + n +
                                    "' is used by a task and declared between the case labels "
                                    "of a switch, where the guard ceic declares after it would "
                                    "be jumped over; put the case's statements in a block: "
                                    "'case 1: { ... }'");
      continue;
    }
    if (in_block(it->second)) {
      Range r = range_of(it->second->getSourceRange());
      if (r.valid) edits_.insert(r.end, scope_text(var));
      continue;
    }
    const auto* loop = parent(DynTypedNode::create(*it->second)).get<CXXForRangeStmt>();
    if (auto at = body_start(loop ? loop->getBody() : nullptr)) {
      edits_.insert(*at, scope_text(var));
      continue;
    }
    error(var->getLocation(), "ceic: variable '" + n +
                                  "' is used by a task; declare it in a block, not in the "
                                  "header of a for, if, while or switch");
  }
  for (const auto& [body, decls] : exit_guards_) {
    auto at = body_start(body);
    if (!at) continue;
    std::set<std::string> names;
    for (const ValueDecl* d : decls) {
      if (unguarded_.count({body, d})) continue;
      std::string n = d->getNameAsString();
      for (int i = 2; !names.insert(n).second; ++i) n = d->getNameAsString() + std::to_string(i);
      unsigned pos = *at;
      // A static local declared in this body is guarded from its declaration on.
      const auto* var = llvm::dyn_cast<VarDecl>(d);
      if (auto it =
              var && var->isStaticLocal() ? facts_.decl_stmt.find(var) : facts_.decl_stmt.end();
          it != facts_.decl_stmt.end()) {
        Range dr = range_of(it->second->getSourceRange()), br = range_of(body->getSourceRange());
        if (dr.valid && br.valid && dr.begin >= br.begin && dr.end <= br.end) {
          if (!in_block(it->second)) {
            error(var->getLocation(), "ceic: static variable '" + var->getNameAsString() +
                                          "' is used by a task; declare it in a block, not in "
                                          "the header of a for, if, while or switch");
            continue;
          }
          pos = dr.end;
        }
      }
      edits_.insert(pos, " ::cei::rt::SyncAtExit __cei_exit_" + n + "(" + guard_name(d) + ");");
    }
  }
}

bool Planner::plan() {
  find_pending();
  for (const auto& c : facts_.calls) plan_call(c);
  if (diags_.has_errors()) return false;
  dry_ = false;
  // Where a task's datum contains another's or lies inside it (A and A[i], A[i] and A[i][j]),
  // the runtime keys them apart: the host reference the argument starts from waits for all of A.
  for (const auto& t : task_roots_)
    if (task_data_overlap(t.decl, t.path)) exempt_.erase(t.node);
  if (opts_.insert_syncs) {
    plan_syncs();
    plan_alias_syncs();
    plan_header_calls();
    plan_this_derefs();
  }
  std::vector<const CeCall*> calls;
  for (const auto& c : facts_.calls) calls.push_back(&c);
  auto size = [&](const CeCall* c) {
    Range r = range_of(c->call->getSourceRange());
    return r.end - r.begin;
  };
  std::stable_sort(calls.begin(), calls.end(), [&](auto* a, auto* b) { return size(a) < size(b); });
  for (const auto* c : calls) plan_call(*c);
  if (opts_.insert_syncs) plan_lambda_captures();
  if (opts_.insert_syncs) plan_throws();
  plan_guards();
  return !diags_.has_errors();
}

}  // namespace

namespace {

// In the translation unit that defines main(): the runtime starts while the program loads, so
// that its devices open while the program prepares its data (an H100 took 0.2 s to open, before
// the first task, in a Cholesky whose matrix took 0.3 s to build before its first CE call). The
// runtime looks at the registered CEs when it starts (none with an OpenCL version: no device
// opens), and the registry's own registrations, in another translation unit, may not have run
// yet: this one registers them first (their CeInfo is constant-initialized).
std::string start_at_load(ASTContext& ctx, const std::vector<model::Model>& models) {
  for (const Decl* d : ctx.getTranslationUnitDecl()->decls())
    if (const auto* f = dyn_cast<FunctionDecl>(d); f && f->isMain() && f->hasBody()) {
      std::string init = "[[maybe_unused]] static const bool __cei_started = (";
      for (const auto& m : models)
        for (const auto& ce : m.ces) init += "::cei::rt::register_ce(" + ce_symbol(ce) + "), ";
      return init + "::cei::rt::detail::start_at_load());\n";
    }
  return "";
}

}  // namespace

std::optional<std::string> instrument_source(const std::string& source,
                                             const std::vector<model::Model>& models,
                                             const std::vector<std::string>& compiler_args,
                                             const std::string& registry_header,
                                             frontend::Diagnostics& diags, const Options& options) {
  std::vector<std::string> args = {"-xc++",
                                   "-std=c++20",
                                   "-fsyntax-only",
                                   "-Wno-unknown-attributes",
                                   "-resource-dir=" CEI_CLANG_RESOURCE_DIR,
                                   "-I" CEI_INCLUDE_DIR};
  args.insert(args.end(), compiler_args.begin(), compiler_args.end());
  tooling::FixedCompilationDatabase db(".", args);
  tooling::ClangTool tool(db, {source});
  ParseErrors parse_errors;
  tool.setDiagnosticConsumer(&parse_errors);
  std::vector<std::unique_ptr<ASTUnit>> asts;
  if (tool.buildASTs(asts) != 0 || asts.size() != 1 ||
      asts[0]->getDiagnostics().hasErrorOccurred()) {
    parse_errors.report(source, diags);
    return std::nullopt;
  }
  ASTContext& ctx = asts[0]->getASTContext();
  CeIndex index(models);
  Facts facts;
  Collector(ctx, index, facts).TraverseDecl(ctx.getTranslationUnitDecl());
  Planner planner(ctx, facts, diags, options);
  if (!planner.plan()) return std::nullopt;

  SourceManager& sm = ctx.getSourceManager();
  Rewriter rewriter(sm, ctx.getLangOpts());
  SourceLocation start = sm.getLocForStartOfFile(sm.getMainFileID());
  llvm::StringRef original = sm.getBufferData(sm.getMainFileID());
  for (auto e : planner.edits().outermost()) {
    // Keep every following line where it was (#line): a call that spanned lines still does.
    auto lines = original.substr(e.begin, e.end - e.begin).count('\n');
    auto kept = static_cast<std::size_t>(std::count(e.text.begin(), e.text.end(), '\n'));
    if (kept < lines) e.text.append(lines - kept, '\n');
    rewriter.ReplaceText(start.getLocWithOffset(e.begin), e.end - e.begin, e.text);
  }
  std::string body;
  if (const RewriteBuffer* buf = rewriter.getRewriteBufferFor(sm.getMainFileID()))
    body = std::string(buf->begin(), buf->end());
  else
    body = sm.getBufferData(sm.getMainFileID()).str();

  std::string path = std::filesystem::absolute(source).lexically_normal().string();
  return "#include \"" + registry_header + "\"\n#include <cei/rt/api.hpp>\n" +
         "#include <cei/rt/sync_at_exit.hpp>\n" + start_at_load(ctx, models) + "#line 1 \"" + path +
         "\"\n" + body;
}

}  // namespace cei::instrument
