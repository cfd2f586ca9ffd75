#include "roots.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <map>
#include <vector>

namespace cei::instrument {

using namespace clang;

namespace {

constexpr int kMaxDepth = 8;  // accessors calling accessors

Root opaque(const Expr* at, std::string why, bool through_pointer = false) {
  Root r;
  r.kind = Root::Opaque;
  r.at = at;
  r.why = std::move(why);
  r.through_pointer = through_pointer;
  return r;
}

Root known(const ValueDecl* decl, const Expr* node) {
  Root r;
  r.kind = Root::Known;
  // One declaration for a static member declared in its class and defined outside it.
  r.decl = llvm::cast<ValueDecl>(decl->getCanonicalDecl());
  r.node = r.origin = node;
  return r;
}

// Containers that own their elements: an element accessor's result lies under the object. (Not
// views or handles such as std::span, std::unique_ptr<T[]> or std::function, whose results
// belong to storage elsewhere.)
bool owns_elements(const CXXRecordDecl* cls) {
  if (!cls || !cls->getIdentifier()) return false;
  const llvm::StringRef name = cls->getName();
  if (cls->isInStdNamespace())
    return name == "vector" || name == "array" || name == "deque" || name == "map" ||
           name == "unordered_map" || name == "basic_string" || name == "valarray";
  const auto* ns = llvm::dyn_cast<NamespaceDecl>(cls->getDeclContext());
  return ns && ns->getName() == "cei" && llvm::isa<TranslationUnitDecl>(ns->getParent()) &&
         name == "Array";
}

// Whether a range-for over a `type` visits the objects that indexing it names (`v[i]` of a
// vector or a built-in array), not key/value pairs (maps) or what a user class's iterator makes.
bool iterates_elements(QualType type) {
  type = type.getNonReferenceType();
  if (type->isArrayType()) return true;
  const CXXRecordDecl* cls = type->getAsCXXRecordDecl();
  if (!owns_elements(cls)) return false;
  const llvm::StringRef name = cls->getName();
  return name != "map" && name != "unordered_map";
}

// A view or handle whose elements belong to another variable (std::span, std::string_view, an
// initializer list, a <ranges> view): a loop over it visits storage that does not lie under it.
bool views_elsewhere(QualType type) {
  const CXXRecordDecl* cls = type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!cls || !cls->isInStdNamespace() || !cls->getIdentifier()) return false;
  const llvm::StringRef name = cls->getName();
  if (name == "span" || name == "basic_string_view" || name == "initializer_list" ||
      name == "reference_wrapper")
    return true;
  for (const DeclContext* dc = cls->getDeclContext(); dc; dc = dc->getParent())
    if (const auto* ns = llvm::dyn_cast<NamespaceDecl>(dc);
        ns && (ns->getName() == "ranges" || ns->getName() == "views"))
      return true;
  return false;
}

std::string name_of(const FunctionDecl* fd) {
  if (const auto* m = llvm::dyn_cast<CXXMethodDecl>(fd); m && m->getParent()->isLambda())
    return "lambda";
  return fd->getQualifiedNameAsString();
}

}  // namespace

const Expr* strip_copy(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* c = llvm::dyn_cast<CXXConstructExpr>(e))
    if (c->getNumArgs() == 1 && c->getConstructor()->isCopyOrMoveConstructor())
      return c->getArg(0)->IgnoreParenImpCasts();
  return e;
}

// An accessor being read: its parameters stand for the call's arguments, its `this` for the
// call's object.
struct RootFinder::Frame {
  const FunctionDecl* fn;
  const LambdaExpr* lambda;  // fn is this lambda's call operator
  llvm::ArrayRef<const Expr*> args;
  const Expr* object;  // the object of a member accessor called with `.`
  bool this_outer;     // a member accessor called on `this`: its `this` is the caller's
  const Frame* outer;
};

Root RootFinder::of(const Expr* e) const {
  const Expr* top = strip_copy(e);
  Root r = walk(e, nullptr, 0);
  if (r.kind == Root::Known && r.node == top && r.path.empty()) r.whole = true;
  return r;
}

Root RootFinder::of_var(const VarDecl* var, const Expr* ref) const {
  if (!var->getType()->isReferenceType() || llvm::isa<ParmVarDecl>(var)) return known(var, ref);
  // A reference local aliases the storage of its initializer: `auto& row = rows[i]`, and the
  // loop variable of `for (auto& row : rows)` an element of the range.
  const Expr* init = nullptr;
  std::string step;
  bool aggregate = false;
  if (auto it = facts_.range_for_init.find(var); it != facts_.range_for_init.end()) {
    init = it->second;
    step = "[]";
    aggregate = !iterates_elements(init->getType());
  } else if (var->hasLocalStorage()) {
    init = var->getInit();
  }
  const auto line = [&] {
    return std::to_string(ctx_.getSourceManager().getPresumedLineNumber(
        ctx_.getSourceManager().getExpansionLoc(var->getLocation())));
  };
  if (!init)
    return opaque(ref, "'" + var->getNameAsString() + "', a reference ceic cannot trace (line " +
                           line() + ")");
  if (!step.empty() && views_elsewhere(init->getType()))
    return opaque(ref, "'" + var->getNameAsString() + "', an element of the view '" +
                           init->getType().getNonReferenceType().getAsString() +
                           "', which lies in the variable it views (line " + line() + ")");
  Root r = walk(init, nullptr, 0);
  if (r.kind == Root::None)
    return opaque(ref, "'" + var->getNameAsString() + "', a reference bound to a temporary (line " +
                           line() + ")");
  if (r.kind == Root::Opaque) {
    r.why = "'" + var->getNameAsString() + "', a reference bound to " + r.why + " (line " + line() +
            ")";
    r.at = ref ? ref : r.at;
    return r;
  }
  r.node = ref;
  r.path += step;
  r.aggregate = aggregate;
  return r;
}

// `v` of `for (auto& [k, v] : m)`: part of the element the loop visits, under m. A host use of
// it waits for all of m's tasks (aggregate), and its path names a part of the element, so tasks
// on whole elements of m are seen to overlap it.
Root RootFinder::range_for_binding(const BindingDecl* b, const DeclRefExpr* ref) const {
  const auto* holder = llvm::dyn_cast_or_null<VarDecl>(b->getDecomposedDecl());
  if (!holder || !holder->getType()->isReferenceType() || !facts_.range_for_init.count(holder))
    return {};
  Root r = of_var(holder, ref);
  if (r.kind != Root::Known) return r;
  r.path += "." + b->getNameAsString();
  r.aggregate = true;
  return r;
}

Root RootFinder::walk(const Expr* e, const Frame* f, int depth) const {
  std::string steps;  // walked from the lvalue towards its root: the root's path ends with them
  const auto found = [&](Root r) {
    if (r.kind == Root::Known) r.path += steps;
    return r;
  };
  const auto element = [&] { steps.insert(0, "[]"); };
  // Not storage: a temporary (copied by an `in`), or a part of one (which no variable holds).
  const auto temporary = [&](const Expr* at) {
    return steps.empty() ? Root{} : opaque(at, "part of a temporary");
  };
  e = strip_copy(e);
  for (;;) {
    e = e->IgnoreParenImpCasts();
    if (const auto* ref = llvm::dyn_cast<DeclRefExpr>(e)) {
      if (const auto* b = llvm::dyn_cast<BindingDecl>(ref->getDecl())) {
        Root r = range_for_binding(b, ref);
        return r.kind == Root::Known ? found(r) : opaque(e, "a structured binding");
      }
      const auto* var = llvm::dyn_cast<VarDecl>(ref->getDecl());
      if (!var) return e->isGLValue() ? opaque(e, "an expression ceic cannot trace") : temporary(e);
      return found(f ? in_frame(ref, var, *f, depth) : of_var(var, ref));
    }
    if (const auto* m = llvm::dyn_cast<MemberExpr>(e)) {
      const auto* field = llvm::dyn_cast<FieldDecl>(m->getMemberDecl());
      if (!field) return opaque(e, "a static member or a member function");
      // `s.ref` of `struct V { DVec& ref; }`, `pr.first` of a pair of references: the object
      // lies elsewhere, not under s, like the target of a pointer member.
      if (field->getType()->isReferenceType())
        return opaque(e,
                      "the reference member '" + field->getNameAsString() +
                          "', whose object does not lie under its holder",
                      true);
      const Expr* base = m->getBase()->IgnoreParenImpCasts();
      if (!m->isArrow()) {
        steps.insert(0, "." + field->getNameAsString());
        e = base;
        continue;
      }
      if (llvm::isa<CXXThisExpr>(base)) return found(this_member(field, f ? nullptr : m, f, depth));
      // `it->f`: the base is the iterator's (or smart pointer's) operator->.
      if (const auto* arrow = llvm::dyn_cast<CXXOperatorCallExpr>(base);
          arrow && arrow->getOperator() == OO_Arrow)
        return opaque(e, "a member reached through an iterator or smart pointer", true);
      return opaque(e, "a member reached through a pointer", true);
    }
    if (const auto* s = llvm::dyn_cast<ArraySubscriptExpr>(e)) {
      const Expr* base = s->getBase()->IgnoreParenImpCasts();
      if (!base->getType()->isArrayType())
        return opaque(e, "an element reached through a pointer", true);
      element();
      e = base;
      continue;
    }
    if (const auto* cast = llvm::dyn_cast<ExplicitCastExpr>(e)) {
      auto k = cast->getCastKind();
      if (e->isGLValue() &&
          (k == CK_NoOp || k == CK_DerivedToBase || k == CK_UncheckedDerivedToBase)) {
        e = cast->getSubExpr();
        continue;
      }
      return e->isGLValue() ? opaque(e, "a cast ceic cannot trace") : temporary(e);
    }
    if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(e)) {
      auto k = op->getOperator();
      if ((k == OO_Subscript || k == OO_Call) && op->getNumArgs() > 0) {
        const Expr* obj = op->getArg(0);
        const CXXRecordDecl* cls = obj->getType()->getAsCXXRecordDecl();
        llvm::ArrayRef<const Expr*> args(op->getArgs() + 1, op->getNumArgs() - 1);
        const auto* fd = llvm::dyn_cast_or_null<FunctionDecl>(op->getCalleeDecl());
        if (!e->isGLValue()) return temporary(e);
        if (cls && cls->isLambda()) {
          const LambdaExpr* l = lambda_of(cls);
          if (!l) return opaque(e, "a call of a lambda ceic cannot see");
          return found(accessor(fd, e, args, nullptr, false, l, f, depth));
        }
        if (!obj->isGLValue()) return opaque(e, "an element of a temporary");
        if (owns_elements(cls)) {
          element();
          e = obj;
          continue;
        }
        return found(accessor(fd, e, args, obj, false, nullptr, f, depth));
      }
      if (k == OO_Star || k == OO_Arrow)
        return opaque(e, "a dereferenced iterator or smart pointer", true);
      return e->isGLValue() ? opaque(e, "the result of an operator call") : temporary(e);
    }
    if (const auto* mc = llvm::dyn_cast<CXXMemberCallExpr>(e)) {
      if (!e->isGLValue()) return temporary(e);
      const CXXMethodDecl* method = mc->getMethodDecl();
      const auto* callee = llvm::dyn_cast<MemberExpr>(mc->getCallee()->IgnoreParens());
      const Expr* obj = mc->getImplicitObjectArgument();
      if (!method || !callee) return opaque(e, "a call through a member pointer");
      bool this_outer = false;
      if (callee->isArrow()) {
        if (!llvm::isa<CXXThisExpr>(obj->IgnoreParenImpCasts()))
          return opaque(e, "a call on an object reached through a pointer", true);
        this_outer = true;
        obj = nullptr;
      }
      const auto name = method->getName();
      if (obj && owns_elements(method->getParent()) &&
          (name == "at" || name == "front" || name == "back")) {
        element();
        e = obj;
        continue;
      }
      llvm::ArrayRef<const Expr*> args(mc->getArgs(), mc->getNumArgs());
      return found(accessor(method, e, args, obj, this_outer, nullptr, f, depth));
    }
    if (const auto* call = llvm::dyn_cast<CallExpr>(e)) {
      if (!e->isGLValue()) return temporary(e);
      llvm::ArrayRef<const Expr*> args(call->getArgs(), call->getNumArgs());
      return found(accessor(call->getDirectCallee(), e, args, nullptr, false, nullptr, f, depth));
    }
    if (const auto* u = llvm::dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref)
      return opaque(e, "a dereferenced pointer", true);
    if (llvm::isa<AbstractConditionalOperator>(e)) return opaque(e, "a conditional expression");
    return e->isGLValue() ? opaque(e, "an expression ceic cannot trace") : temporary(e);
  }
}

Root RootFinder::in_frame(const DeclRefExpr* ref, const VarDecl* var, const Frame& f,
                          int depth) const {
  const std::string fn = name_of(f.fn);
  if (const auto* parm = llvm::dyn_cast<ParmVarDecl>(var); parm && parm->getDeclContext() == f.fn) {
    unsigned i = parm->getFunctionScopeIndex();
    if (!parm->getType()->isReferenceType() || i >= f.args.size())
      return opaque(ref, "a by-value parameter of '" + fn + "'");
    return walk(f.args[i], f.outer, depth + 1);
  }
  if (f.lambda && ref->refersToEnclosingVariableOrCapture()) {
    for (const auto& cap : f.lambda->captures())
      if (cap.capturesVariable() && cap.getCapturedVar() == var) {
        if (cap.getCaptureKind() != LCK_ByRef)
          return opaque(ref, "a copy of '" + var->getNameAsString() + "' the lambda captured");
        if (f.outer) break;  // the lambda's variables are not the caller's
        Root r = of_var(var, nullptr);
        if (r.kind == Root::Known) r.node = nullptr;
        return r;
      }
    return opaque(ref, "a variable of the lambda's creator");
  }
  if (var->hasGlobalStorage() && !var->isStaticLocal()) return known(var, nullptr);
  return opaque(ref, "a local variable of '" + fn + "'");
}

Root RootFinder::this_member(const FieldDecl* field, const Expr* m, const Frame* f,
                             int depth) const {
  if (!f) return known(field, m);
  if (f->object) {
    Root r = walk(f->object, f->outer, depth + 1);
    if (r.kind == Root::Known) r.path += "." + field->getNameAsString();
    return r;
  }
  // A lambda's `this` is its creator's; a member accessor called on `this` shares the caller's.
  if ((f->lambda && !f->outer) || f->this_outer)
    return this_member(field, nullptr, f->outer, depth);
  return opaque(m, "a member of 'this' of '" + name_of(f->fn) + "'");
}

Root RootFinder::accessor(const FunctionDecl* fd, const Expr* call,
                          llvm::ArrayRef<const Expr*> args, const Expr* object, bool this_outer,
                          const LambdaExpr* lambda, const Frame* f, int depth) const {
  const std::string what =
      fd ? (lambda ? "a call of a lambda" : "a call of '" + name_of(fd) + "'") : "a call";
  if (!fd) return opaque(call, "a call through a function pointer");
  // An override may return something else than the body seen here.
  if (const auto* m = llvm::dyn_cast<CXXMethodDecl>(fd); m && m->isVirtual())
    return opaque(call, "a call of virtual '" + name_of(fd) + "'");
  if (depth > kMaxDepth) return opaque(call, what + " nested too deep to follow");
  const Expr* ret = single_return(fd);
  if (!ret)
    return opaque(call, what +
                            " that returns a reference and whose body ceic cannot see "
                            "through");
  const FunctionDecl* def = nullptr;
  fd->hasBody(def);
  Frame frame{def, lambda, args, object, this_outer, f};
  Root r = walk(ret, &frame, depth + 1);
  if (r.kind != Root::Opaque) return r;
  // Opaque inside the body (not in an argument the call passed): say which call it was.
  const auto& sm = ctx_.getSourceManager();
  SourceRange body = def->getBody()->getSourceRange();
  SourceLocation at = r.at ? r.at->getBeginLoc() : SourceLocation();
  if (at.isValid() && !sm.isBeforeInTranslationUnit(at, body.getBegin()) &&
      !sm.isBeforeInTranslationUnit(body.getEnd(), at)) {
    r.why = what + ", which returns " + r.why;
    r.at = call;
  }
  return r;
}

const LambdaExpr* RootFinder::lambda_of(const CXXRecordDecl* cls) const {
  for (const auto* l : facts_.lambdas)
    if (l->getLambdaClass() == cls) return l;
  return nullptr;
}

// The returned lvalue of a function whose body is exactly `return <expression>;`.
const Expr* RootFinder::single_return(const FunctionDecl* fd) const {
  const FunctionDecl* def = nullptr;
  if (!fd->getReturnType()->isReferenceType() || !fd->hasBody(def)) return nullptr;
  const auto* body = llvm::dyn_cast_or_null<CompoundStmt>(def->getBody());
  if (!body || body->size() != 1) return nullptr;
  const auto* ret = llvm::dyn_cast<ReturnStmt>(body->body_front());
  return ret ? ret->getRetValue() : nullptr;
}

// A local is named by its name where the site is inside the same function (or a lambda there
// that takes it by reference) and no other variable of that function has that name.
bool RootFinder::visible_at(const VarDecl* var, const Site& site) const {
  if (var->hasGlobalStorage() && !var->isStaticLocal()) return true;
  const auto outermost_function = [](const DeclContext* dc) -> const FunctionDecl* {
    for (; dc; dc = dc->getParent()) {
      const auto* fd = llvm::dyn_cast<FunctionDecl>(dc);
      const auto* m = llvm::dyn_cast_or_null<CXXMethodDecl>(fd);
      if (fd && !(m && m->getParent()->isLambda())) return fd;
    }
    return nullptr;
  };
  const FunctionDecl* fn = outermost_function(var->getDeclContext());
  if (!fn || fn != site.function) return false;
  if (site.lambda && var->getDeclContext() != site.lambda->getCallOperator()) {
    bool by_ref = site.lambda->getCaptureDefault() == LCD_ByRef;
    for (const auto& cap : site.lambda->captures())
      if (cap.capturesVariable() && cap.getCapturedVar() == var)
        by_ref = cap.getCaptureKind() == LCK_ByRef;
    if (!by_ref) return false;
  }
  for (const auto& [other, stmt] : facts_.decl_stmt)
    if (other != var && other->getName() == var->getName() &&
        outermost_function(other->getDeclContext()) == fn)
      return false;
  for (const auto* p : fn->parameters())
    if (p != var && p->getName() == var->getName()) return false;
  return true;
}

std::optional<std::string> RootFinder::name_at(const Root& r, const Site& site) const {
  if (const auto* field = llvm::dyn_cast<FieldDecl>(r.decl)) {
    const auto* method = llvm::dyn_cast_or_null<CXXMethodDecl>(site.function);
    if (!method || !method->isInstance() || method->getParent() != field->getParent())
      return std::nullopt;
    return "this->" + field->getNameAsString();
  }
  const auto* var = llvm::dyn_cast<VarDecl>(r.decl);
  if (!var || !visible_at(var, site)) return std::nullopt;
  if (!var->hasGlobalStorage() || var->isStaticLocal()) return var->getNameAsString();
  std::string q = var->getQualifiedNameAsString();
  if (q.find('(') != std::string::npos) return std::nullopt;  // an anonymous namespace
  return "::" + q;
}

std::optional<std::string> RootFinder::inlined_lambda_call(
    const Expr* arg, const Site& site,
    const std::function<std::string(const Expr*)>& text_of) const {
  const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(strip_copy(arg));
  if (!op || op->getOperator() != OO_Call) return std::nullopt;
  const CXXRecordDecl* cls = op->getArg(0)->getType()->getAsCXXRecordDecl();
  const LambdaExpr* l = cls && cls->isLambda() ? lambda_of(cls) : nullptr;
  const auto* fd = llvm::dyn_cast_or_null<FunctionDecl>(op->getCalleeDecl());
  if (!l || !fd || site.lambda) return std::nullopt;
  const Expr* ret = single_return(fd);
  if (!ret || ret->HasSideEffects(ctx_, false)) return std::nullopt;
  const auto& sm = ctx_.getSourceManager();
  const auto offset = [&](SourceLocation loc) { return sm.getFileOffset(loc); };
  CharSourceRange range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(ret->getSourceRange()), sm, ctx_.getLangOpts());
  if (range.isInvalid() || !sm.isInMainFile(range.getBegin())) return std::nullopt;
  // Every name in the body must mean the same object at the call: parameters become the
  // arguments, captured variables must be captured by reference and visible there by their name.
  std::map<unsigned, std::pair<unsigned, std::string>> replace;  // offset -> (length, text)
  std::map<const ParmVarDecl*, int> uses;
  std::vector<const Stmt*> todo = {ret};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (!s) continue;
    if (llvm::isa<CXXThisExpr>(s)) return std::nullopt;
    if (const auto* ref = llvm::dyn_cast<DeclRefExpr>(s)) {
      const auto* var = llvm::dyn_cast<VarDecl>(ref->getDecl());
      if (!var) continue;
      SourceLocation loc = ref->getLocation();
      if (!loc.isFileID()) return std::nullopt;
      unsigned len = Lexer::MeasureTokenLength(loc, sm, ctx_.getLangOpts());
      if (const auto* parm = llvm::dyn_cast<ParmVarDecl>(var);
          parm && parm->getDeclContext() == fd) {
        unsigned i = parm->getFunctionScopeIndex();
        if (i + 1 >= op->getNumArgs()) return std::nullopt;
        ++uses[parm];
        replace[offset(loc)] = {len, "(" + text_of(op->getArg(i + 1)) + ")"};
        continue;
      }
      if (var->hasGlobalStorage() && !var->isStaticLocal()) {
        Root g = known(var, nullptr);
        auto name = name_at(g, site);
        if (!name || ref->getQualifier()) return std::nullopt;
        replace[offset(loc)] = {len, *name};
        continue;
      }
      bool by_ref = true;  // or not captured at all: a constant the body only reads
      for (const auto& cap : l->captures())
        if (cap.capturesVariable() && cap.getCapturedVar() == var)
          by_ref = cap.getCaptureKind() == LCK_ByRef;
      Root v = known(var, nullptr);
      if (!by_ref || !name_at(v, site)) return std::nullopt;
      continue;  // its own name, unchanged
    }
    for (const Stmt* child : s->children()) todo.push_back(child);
  }
  // An argument is evaluated once by the call: inlined, it must still be, or have no effects.
  for (unsigned i = 1; i < op->getNumArgs(); ++i) {
    const auto* parm = fd->getParamDecl(i - 1);
    if (uses[parm] != 1 && op->getArg(i)->HasSideEffects(ctx_, true)) return std::nullopt;
    if (op->getArg(i)->HasSideEffects(ctx_, false)) return std::nullopt;
  }
  unsigned begin = offset(range.getBegin()), end = offset(range.getEnd());
  llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  std::string out;
  unsigned at = begin;
  for (const auto& [pos, rep] : replace) {
    if (pos < at || pos + rep.first > end) return std::nullopt;
    out += buffer.substr(at, pos - at).str() + rep.second;
    at = pos + rep.first;
  }
  out += buffer.substr(at, end - at).str();
  return out;
}

std::string RootFinder::advice(const Root& r) {
  if (r.through_pointer && r.why.find("iterator") != std::string::npos)
    return "index the container instead (e.g. 'v[i]'), or keep the object in a variable rather "
           "than behind a smart pointer";
  if (r.why.find("reference member") != std::string::npos)
    return "pass the variable the member refers to (e.g. 'a' for 'V s{a}'), or an element or "
           "member of it";
  if (r.through_pointer)
    return "pass the variable, member or element itself (e.g. 'v[i]', 's.f'), or a reference "
           "bound to one";
  if (r.why.find("conditional") != std::string::npos)
    return "call the CE in each branch of an 'if'";
  if (r.why.find("captured") != std::string::npos) return "capture it by reference";
  if (r.why.find("temporary") != std::string::npos) return "declare a variable instead";
  if (r.why.find("element of the view") != std::string::npos)
    return "loop over the container the view shows, or index it (e.g. 'table[i]')";
  if (r.why.find("structured binding") != std::string::npos)
    return "pass the member of the object itself (e.g. 'p.first')";
  return "pass the variable, member or element it stands for; ceic sees through a function, "
         "member function or lambda only when its body is 'return <element or member of a "
         "parameter, of this or of a variable captured by reference>;'";
}

}  // namespace cei::instrument
