#include "header_reads.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace cei::instrument {

using namespace clang;

namespace {

constexpr int kMaxDepth = 6;  // header functions calling header functions

// The globals (and static members) a function's body names, and those of the functions it calls.
class GlobalUses : public RecursiveASTVisitor<GlobalUses> {
 public:
  GlobalUses(std::map<const FunctionDecl*, std::set<const VarDecl*>>& memo, int depth)
      : memo_(memo), depth_(depth) {}

  std::set<const VarDecl*> of(const FunctionDecl* fd) {
    const FunctionDecl* def = nullptr;
    if (!fd || !fd->hasBody(def) || depth_ > kMaxDepth ||
        fd->getASTContext().getSourceManager().isInSystemHeader(def->getLocation()))
      return {};
    if (auto it = memo_.find(def); it != memo_.end()) return it->second;
    memo_[def];  // a recursive call sees what is known so far
    GlobalUses inner(memo_, depth_ + 1);
    inner.TraverseStmt(def->getBody());
    return memo_[def] = std::move(inner.found_);
  }
  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (const auto* var = llvm::dyn_cast<VarDecl>(ref->getDecl());
        var && var->hasGlobalStorage() && !var->isStaticLocal())
      found_.insert(var->getCanonicalDecl());
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    auto more = of(call->getDirectCallee());
    found_.insert(more.begin(), more.end());
    return true;
  }

 private:
  std::map<const FunctionDecl*, std::set<const VarDecl*>>& memo_;
  int depth_;
  std::set<const VarDecl*> found_;
};

class Calls : public RecursiveASTVisitor<Calls> {
 public:
  explicit Calls(ASTContext& ctx) : sm_(ctx.getSourceManager()) {}
  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* fd = call->getDirectCallee();
    const FunctionDecl* def = nullptr;
    if (!fd || llvm::isa<CXXOperatorCallExpr>(call) || !fd->hasBody(def) ||
        !in_main(call->getBeginLoc()) || in_main(def->getLocation()) ||
        sm_.isInSystemHeader(def->getLocation()))
      return true;
    auto globals = GlobalUses(memo_, 0).of(def);
    if (!globals.empty()) out.push_back({call, std::move(globals)});
    return true;
  }
  std::vector<HeaderCall> out;

 private:
  bool in_main(SourceLocation loc) const {
    return loc.isValid() && sm_.isInMainFile(sm_.getExpansionLoc(loc));
  }
  const SourceManager& sm_;
  std::map<const FunctionDecl*, std::set<const VarDecl*>> memo_;
};

}  // namespace

std::vector<HeaderCall> header_calls(ASTContext& ctx) {
  Calls calls(ctx);
  calls.TraverseDecl(ctx.getTranslationUnitDecl());
  return std::move(calls.out);
}

}  // namespace cei::instrument
