// parse_cei: runs clang (LibTooling's ToolInvocation, real file system) on the CEI header and
// hands the AST to read_cei. Clang's own errors are reported in the same Diagnostics.
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Sema/Sema.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>

#include <cei/frontend.hpp>

#include "cei_reader.hpp"

#if defined(__SANITIZE_ADDRESS__)
// Under ASan, LLVM's headers poison the slabs of BumpPtrAllocator in code compiled here, while
// Debian's LLVM libraries (built without ASan) hand those slabs out without unpoisoning them:
// every AST walk would be a false use-after-poison. Every program that parses a CEI header links
// this file, so user poisoning is off for all of them; ASan's own checks stay on.
extern "C" const char* __asan_default_options() {
  return "allow_user_poisoning=0";
}
#endif

namespace cei::frontend {
namespace {

class DiagnosticsSink : public clang::DiagnosticConsumer {
 public:
  explicit DiagnosticsSink(Diagnostics& d) : diags_(d) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    model::Location at;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const auto& sm = info.getSourceManager();
      const clang::PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(info.getLocation()));
      if (p.isValid()) at = {p.getFilename(), p.getLine(), p.getColumn()};
    }
    if (at.file.empty()) at.file = "ceic";
    diags_.error(at, text.str().str());
  }

 private:
  Diagnostics& diags_;
};

// A CE's parameter or result of a class template specialization that the header only names
// (`std::pair<int, int>`, `std::optional<int>&`) has no definition until something instantiates
// it: Sema does, as a compiler would where the CE is called.
class CompleteTypes : public clang::RecursiveASTVisitor<CompleteTypes> {
 public:
  explicit CompleteTypes(clang::Sema& sema) : sema_(sema) {}
  bool VisitCXXMethodDecl(clang::CXXMethodDecl* m) {
    complete(m->getReturnType(), m->getLocation());
    for (const auto* p : m->parameters()) complete(p->getType(), p->getLocation());
    return true;
  }

 private:
  // Quietly: a specialization that does not instantiate (`cei::Array<int, 4>`'s static_assert)
  // is reported by the reader, in its terms.
  void complete(clang::QualType t, clang::SourceLocation at) {
    t = t.getNonReferenceType();
    if (!t->isRecordType() || t->isDependentType()) return;
    clang::DiagnosticsEngine& diags = sema_.getDiagnostics();
    const bool quiet = diags.getSuppressAllDiagnostics();
    diags.setSuppressAllDiagnostics(true);
    (void)sema_.isCompleteType(at, t);
    diags.setSuppressAllDiagnostics(quiet);
  }
  clang::Sema& sema_;
};

class ReadConsumer : public clang::ASTConsumer {
 public:
  ReadConsumer(const std::string& header, model::Model& m, Diagnostics& d,
               clang::CompilerInstance& ci)
      : header_(header), model_(m), diags_(d), ci_(ci) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    // After clang's own errors the AST is partial; reading it would only add noise.
    if (diags_.has_errors()) return;
    if (ci_.hasSema()) CompleteTypes(ci_.getSema()).TraverseDecl(ctx.getTranslationUnitDecl());
    read_cei(ctx, header_, model_, diags_);
  }

 private:
  const std::string& header_;
  model::Model& model_;
  Diagnostics& diags_;
  clang::CompilerInstance& ci_;
};

class ReadAction : public clang::ASTFrontendAction {
 public:
  ReadAction(const std::string& header, model::Model& m, Diagnostics& d)
      : header_(header), model_(m), diags_(d) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    return std::make_unique<ReadConsumer>(header_, model_, diags_, ci);
  }

 private:
  const std::string& header_;
  model::Model& model_;
  Diagnostics& diags_;
};

}  // namespace

model::Model parse_cei(const std::string& header, const std::vector<std::string>& compiler_args,
                       Diagnostics& diags) {
  model::Model model;
  model.header = header;
  std::vector<std::string> argv = {"clang++",
                                   "-fsyntax-only",
                                   "-std=c++20",
                                   "-resource-dir",
                                   CEI_CLANG_RESOURCE_DIR,
                                   "-Wno-unknown-attributes",
                                   "-Wno-pragma-once-outside-header",
                                   "-fno-caret-diagnostics",  // also drops "N errors generated."
                                   "-xc++"};
  argv.insert(argv.end(), compiler_args.begin(), compiler_args.end());
  argv.insert(argv.end(), {"-idirafter", CEI_INCLUDE_DIR, header});

  DiagnosticsSink sink(diags);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), llvm::vfs::getRealFileSystem()));
  clang::tooling::ToolInvocation invocation(
      argv, std::make_unique<ReadAction>(header, model, diags), files.get());
  invocation.setDiagnosticConsumer(&sink);
  if (!invocation.run() && !diags.has_errors())
    diags.error({header, 0, 0}, "clang could not parse the header");
  return model;
}

}  // namespace cei::frontend
