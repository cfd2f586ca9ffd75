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
  // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on `":" + std::string`.
  std::string line = at.file;
  if (at.line) {
    line += ':';
    line += std::to_string(at.line);
    line += ':';
    line += std::to_string(at.column);
  }
  line += ": ";
  line += severity;
  line += ": ";
  line += message;
  lines_.push_back(std::move(line));
}

std::string Diagnostics::text() const {
  std::string out;
  for (const auto& l : lines_) out += l + "\n";
  return out;
}

}  // namespace cei::frontend
