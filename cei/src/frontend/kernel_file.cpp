#include "kernel_file.hpp"

#include <cctype>

namespace cei::frontend {
namespace {

// Identifiers and single punctuation characters, comments and literals dropped.
std::vector<std::string> tokens(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < s.size()) {
    const char c = s[i];
    if (s.substr(i, 2) == "//") {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.substr(i, 2) == "/*") {
      const std::size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c; ++i)
        if (s[i] == '\\') ++i;
      ++i;
    } else if (ident(c)) {
      const std::size_t start = i;
      while (i < s.size() && ident(s[i])) ++i;
      out.emplace_back(s.substr(start, i - start));
    } else {
      if (!std::isspace(static_cast<unsigned char>(c))) out.emplace_back(1, c);
      ++i;
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> kernel_names(std::string_view opencl_source) {
  const std::vector<std::string> t = tokens(opencl_source);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] != "__kernel" && t[i] != "kernel") continue;
    // Skip qualifiers and __attribute__((...)) up to the first identifier followed by '('.
    std::size_t j = i + 1;
    while (j + 1 < t.size()) {
      if (t[j] == "__attribute__" || t[j] == "__attribute") {
        int depth = 0;
        for (++j; j < t.size(); ++j) {
          if (t[j] == "(") ++depth;
          if (t[j] == ")" && --depth == 0) break;
        }
        ++j;
        continue;
      }
      if (t[j + 1] == "(") break;
      ++j;
    }
    if (j + 1 < t.size() && t[j + 1] == "(") names.push_back(t[j]);
    i = j;
  }
  return names;
}

}  // namespace cei::frontend
