// Builds the CE model from a parsed CEI header: finds the [[cei::interface]] structs of the main
// file, reads their attributes (attr_tokens.hpp) and checks everything docs/language.md says is
// reported at build time.
#pragma once

#include <cei/frontend.hpp>

namespace clang {
class ASTContext;
}

namespace cei::frontend {

void read_cei(clang::ASTContext& ctx, const std::string& header, model::Model& model,
              Diagnostics& diags);

}  // namespace cei::frontend
