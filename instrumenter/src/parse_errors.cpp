#include "parse_errors.hpp"

#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/raw_ostream.h>

namespace cei::instrument {

namespace {

clang::DiagnosticOptions* plain_options() {
  auto* options = new clang::DiagnosticOptions;
  options->ShowColors = false;
  return options;
}

}  // namespace

ParseErrors::ParseErrors() : clang::TextDiagnosticPrinter(stream, plain_options()) {}

void ParseErrors::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                   const clang::Diagnostic& info) {
  clang::TextDiagnosticPrinter::HandleDiagnostic(level, info);
  if (!info.hasSourceManager() || info.getLocation().isInvalid()) return;
  const auto& sm = info.getSourceManager();
  const clang::SourceLocation at = sm.getFileLoc(info.getLocation());
  const clang::PresumedLoc p = sm.getPresumedLoc(at);
  if (p.isInvalid()) return;
  const std::string file = p.getFilename();
  if (level >= clang::DiagnosticsEngine::Error && !in_ranges_ && sm.isInSystemHeader(at) &&
      (file.ends_with("/ranges") || file.find("/bits/ranges_") != std::string::npos ||
       file.ends_with("/bits/iterator_concepts.h"))) {
    in_ranges_ = true;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    first_error_ = file + ":" + std::to_string(p.getLine()) + ": " + message.str().str();
  }
  if (in_ranges_ && user_at_.file.empty() && sm.isInMainFile(at))
    user_at_ = {file, p.getLine(), p.getColumn()};
}

void ParseErrors::report(const std::string& source, frontend::Diagnostics& diags) {
  stream.flush();
  if (!in_ranges_ || user_at_.file.empty()) {
    llvm::errs() << text;
    diags.error({source, 0, 0}, "ceic: the source does not compile; see the errors above");
    return;
  }
  diags.error(user_at_,
              "ceic: clang 14, which ceic reads the source with, cannot compile this use of "
              "<ranges> views (libstdc++ 12's; g++ can): write the loop over the container "
              "itself (an index or its iterators) here, or keep the code that uses views in a "
              "source file with no CE call, in a library given to cei_add_application's "
              "LIBRARIES");
  diags.note(user_at_, "clang's first error: " + first_error_);
}

}  // namespace cei::instrument
