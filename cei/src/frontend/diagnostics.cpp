#include <cei/frontend.hpp>

namespace cei::frontend {

void Diagnostics::error(const model::Location& at, const std::string& message) {
  ++errors_;
  add(at, "error", message);
}
void Diagnostics::warning(const model::Location& at, const std::string& message) {
  add(at, "warning", message);
}
void Diagnostics::note(const model::Location& at, const std::string& message) {
  add(at, "note", message);
}

void Diagnostics::add(const model::Location& at, const char* severity, const std::string& message) {
  std::string line = at.file;
  if (at.line) line += ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
  lines_.push_back(line + ": " + severity + ": " + message);
}

std::string Diagnostics::text() const {
  std::string out;
  for (const auto& l : lines_) out += l + "\n";
  return out;
}

}  // namespace cei::frontend
