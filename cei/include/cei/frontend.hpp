// The CEI header parser (libclang 14): reads a Core Element Interface header into the CE model and
// reports every mistake in the compiler's own format.
//
//   cei::frontend::Diagnostics diags;
//   cei::model::Model m = cei::frontend::parse_cei("matmul.cei.hpp", {"-I.", "-std=c++20"}, diags);
//   if (diags.has_errors()) { for (auto& l : diags.lines()) std::cerr << l << "\n"; return 1; }
//   std::cout << cei::model::to_json(m) << "\n";
//
// Link CEI::frontend (target cei_frontend). The header's own #includes are resolved with
// `compiler_args` (-I, -D, -std); <cei/cei.hpp> is always found.
#pragma once

#include <cei/model.hpp>

#include <string>
#include <vector>

namespace cei::frontend {

// Collects `file:line:col: error: message` lines, clang's format, in the order they were found.
class Diagnostics {
 public:
  void error(const model::Location& at, const std::string& message);
  void warning(const model::Location& at, const std::string& message);
  void note(const model::Location& at, const std::string& message);

  bool has_errors() const { return errors_ > 0; }
  std::size_t error_count() const { return errors_; }
  const std::vector<std::string>& lines() const { return lines_; }
  std::string text() const;  // all lines, each ending in '\n'

 private:
  void add(const model::Location& at, const char* severity, const std::string& message);

  std::vector<std::string> lines_;
  std::size_t errors_ = 0;
};

// Parses `header` (a path as the user gave it; locations and kernel paths keep its form) with the
// extra `compiler_args`. On errors the returned model holds what could be read.
model::Model parse_cei(const std::string& header, const std::vector<std::string>& compiler_args,
                       Diagnostics& diags);

}  // namespace cei::frontend
