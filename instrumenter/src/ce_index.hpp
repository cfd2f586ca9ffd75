// Which functions are native versions of a Core Element: `S::name` for every
// [[cei::method(declaring_class = "S")]] of every CE of the application's CEI headers.
#pragma once

#include <cei/model.hpp>

#include <map>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}

namespace cei::instrument {

class CeIndex {
 public:
  explicit CeIndex(const std::vector<model::Model>& models);
  // The CE that `fd` implements, or null.
  const model::CoreElement* find(const clang::FunctionDecl* fd) const;

 private:
  static bool same_signature(const clang::FunctionDecl& fd, const model::CoreElement& ce);
  std::map<std::string, const model::CoreElement*> by_qualified_name_;  // "matmul::multiply"
};

}  // namespace cei::instrument
