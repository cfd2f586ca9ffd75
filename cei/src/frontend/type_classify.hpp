// Maps a clang type to the CE model's Type (docs/language.md, "Types").
#pragma once

#include <cei/model.hpp>

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class QualType;
}  // namespace clang

namespace cei::frontend {

struct Classified {
  model::Type type;
  std::string error;  // non-empty: the type is not supported, and why
};

// `t` may carry references and cv-qualifiers; they are stripped.
Classified classify(clang::QualType t, const clang::ASTContext& ctx);

}  // namespace cei::frontend
