// The CEI attribute vocabulary (where each attribute goes, which arguments it takes) and the
// check of what was written against it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "read_context.hpp"

namespace cei::frontend {

// Where each attribute may appear, and the arguments it takes.
struct AttrSpec {
  const char* name;
  enum class On { Interface, Function, Parameter } on;
  std::vector<std::pair<const char*, AttrArg::Kind>> args;
  std::vector<const char*> required;
  // The argument a leading unnamed string fills (`significance("50")` is `expr = "50"`), or null.
  const char* positional = nullptr;
};

// Every attribute, in the order messages list them.
const std::vector<AttrSpec>& specs();
const AttrSpec* spec_of(const std::string& name);  // null for unknown names

// Reports unknown or misplaced attributes and bad arguments (`here` names the position for
// messages: "a parameter"); returns the attributes that passed.
std::vector<ReadAttr> validate_attrs(const ReadContext& rc, const std::vector<RawAttr>& raw,
                                     AttrSpec::On on, const char* here);

}  // namespace cei::frontend
