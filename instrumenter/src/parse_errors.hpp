// clang's own errors while ceic reads a source. Most are the program's (g++ would say the same)
// and are printed as clang wrote them; one is clang 14's, not the program's: libstdc++ 12's
// <ranges> views do not compile with it, and ceic then says so at the program's line, with what
// to write instead, rather than print clang's errors inside the standard library.
#pragma once

#include <cei/frontend.hpp>

#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace cei::instrument {

// clang's diagnostics, as it prints them (a base, so that it is built before the printer).
struct PrintedText {
  std::string text;
  llvm::raw_string_ostream stream{text};
};

class ParseErrors : private PrintedText, public clang::TextDiagnosticPrinter {
 public:
  ParseErrors();
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override;
  // After a failed parse of `source`.
  void report(const std::string& source, frontend::Diagnostics& diags);

 private:
  bool in_ranges_ = false;    // an error inside <ranges>
  model::Location user_at_;   // the first place in the source a diagnostic after it names
  std::string first_error_;
};

}  // namespace cei::instrument
