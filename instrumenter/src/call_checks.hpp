// CE calls whose task could not do what the call does in the sequential program, so ceic refuses
// them at their line (docs/instrumenter.md, "Refused constructs"): each check returns where and
// why, or nothing when the call is fine.
#pragma once

#include "collector.hpp"
#include "roots.hpp"

#include <optional>
#include <string>

namespace cei::instrument {

struct Refusal {
  const clang::Expr* at;
  std::string message;  // "ceic: ...", ending with what to write instead and the rule's tag
};

// An instance CE of a polymorphic class on an object whose dynamic class ceic cannot tell (a
// reference, a parameter): C++ dispatches `s.grow(2)` to the override and runs the native on the
// whole object; the task would run the declaring class's version on a copy of its part.
std::optional<Refusal> virtual_call(const CeCall& c);

// A CE call in a destructor: a global's destructor runs after the runtime stopped at exit.
std::optional<Refusal> destructor_call(const CeCall& c);

// One object (or part of it) passed as a by-reference `in` and as an `out`/`inout` of the same
// call (`maxpy(m, m, k)`), or as two outputs: the function sees one object; the task reads the
// value before the call and writes another.
std::optional<Refusal> aliased_arguments(const CeCall& c, const RootFinder& roots,
                                         const clang::ASTContext& ctx);

}  // namespace cei::instrument
