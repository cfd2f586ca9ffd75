// What every part of the CEI reader shares: the AST, the diagnostics, and the mapping from
// attribute text offsets to file locations.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>

#include <cei/frontend.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "attr_args.hpp"
#include "attr_tokens.hpp"

namespace cei::frontend {

// An attribute whose arguments passed the spec: values by key, with their locations.
struct ReadAttr {
  const RawAttr* raw = nullptr;
  std::vector<AttrArg> args;

  const AttrArg* arg(const char* key) const {
    for (const auto& a : args)
      if (a.key == key) return &a;
    return nullptr;
  }
  std::string str(const char* key) const {
    const AttrArg* a = arg(key);
    return a ? a->text : std::string();
  }
};

struct ReadContext {
  clang::ASTContext& ctx;
  std::string header;
  Diagnostics& diags;

  model::Location loc(clang::SourceLocation l) const {
    const clang::SourceManager& sm = ctx.getSourceManager();
    const clang::PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(l));
    if (p.isInvalid()) return {header, 0, 0};
    return {p.getFilename(), p.getLine(), p.getColumn()};
  }
  // `offset` counts from the first character between the attribute's parentheses.
  model::Location loc_at(const ReadAttr& a, std::size_t offset) const {
    return loc(a.raw->args_loc.getLocWithOffset(static_cast<int>(offset)));
  }
  model::Location arg_loc(const ReadAttr& a, const AttrArg& arg) const {
    return loc_at(a, arg.value_offset);
  }
  // Column `column` (1-based, of an expr::Error) of the expression string `arg`.
  model::Location expr_loc(const ReadAttr& a, const AttrArg& arg, std::size_t column) const {
    const std::size_t i = std::min(column - 1, arg.char_offsets.size() - 1);
    return loc_at(a, arg.char_offsets[i]);
  }
};

inline std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

}  // namespace cei::frontend
