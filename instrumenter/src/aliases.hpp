// Locals that point into task data without being references ceic can root: pointers
// (`int* p = v.data()`), iterators (`auto it = w.begin()`), views (`std::span<int> s(v)`) and
// references bound through them (`const int& x = *it`). A use of one that reaches the data it
// points to waits for the variable's tasks, as a use of the variable does (pointer_alias_syncs,
// docs/instrumenter.md, "What the analysis sees"). And a waited CE call whose full expression
// uses one of its outputs' variables on the host (`c.hist.push_back(c.add(1))`).
#pragma once

#include "collector.hpp"
#include "roots.hpp"

#include <clang/AST/ASTContext.h>

#include <functional>
#include <map>
#include <set>

namespace cei::instrument {

// What a use of a pointer-like local does with what it points to.
enum class PointeeAccess { None, Read, Write };

// Each pointer-like local whose initializer names a variable of `tracked` (or another such local)
// mapped to those variables.
std::map<const clang::VarDecl*, std::set<const clang::ValueDecl*>> pointer_aliases(
    const Facts& facts, const RootFinder& roots, const std::set<const clang::ValueDecl*>& tracked);

// `ref` (a use of a pointer-like local): None where it only moves, compares or copies the pointer
// into another of `aliases`; Read or Write where it reaches the data (`*p`, `p[i]`, `it->f`,
// through `only_reads`); Write where it escapes (passed to a function, returned).
PointeeAccess pointee_access(clang::ASTContext& ctx, const clang::Expr* ref,
                             const std::function<bool(const clang::Expr*)>& only_reads,
                             const std::map<const clang::VarDecl*,
                                            std::set<const clang::ValueDecl*>>& aliases);

// The function and lambda `e` lies in, for RootFinder::name_at.
Site site_of(clang::ASTContext& ctx, const clang::Expr* e);

// Whether the full expression around CE call `c` uses on the host, outside the call, a variable
// that the call's task writes (an out/inout argument's root, an instance CE's object).
bool host_uses_outputs(clang::ASTContext& ctx, const Facts& facts, const RootFinder& roots,
                       const CeCall& c);

}  // namespace cei::instrument
