// The call of a CE's native version with one pointer per argument, shared by every place that
// runs one: the CPU platform's workers, a worker node's executors, the remote platform's
// recomputation of a lost value. Part of the platform SDK (docs/platforms.md); header-only, so
// code without the runtime (a worker node's server) uses it too.
//
//   void* args[] = {&a, &b, &result};   // parameters in order, then the result's storage
//   cei::rt::invoke_native(ce, 0, args);
#pragma once

#include <cei/rt/ce.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cei::rt {

namespace detail {
// Out of line and cold: the call below stays small enough to inline on a per-task path.
[[noreturn, gnu::cold, gnu::noinline]] inline void no_native_version(const CeInfo& ce,
                                                                     std::size_t version) {
  std::string what = std::string("CE ") + ce.interface_name + "::" + ce.name;
  what += ce.nversions == 0 ? " has no native version"
                            : " has no native version " + std::to_string(version);
  throw std::invalid_argument(what);
}
}  // namespace detail

// Runs native version `version` of `ce` on `args`: one pointer per parameter (the callee first
// for an instance CE), then the result's storage, already constructed, for a CE with a result.
// Whatever the CE throws passes through. Throws std::invalid_argument naming the CE when it has
// no such version. Thread-safe as the CE is.
inline void invoke_native(const CeInfo& ce, std::size_t version, void* const* args) {
  if (version >= ce.nversions) [[unlikely]]
    detail::no_native_version(ce, version);
  ce.versions[version].invoke(args);
}

// The same on objects the caller owns, one per argument in that order.
inline void invoke_native(const CeInfo& ce, std::size_t version,
                          std::span<const std::shared_ptr<void>> args) {
  std::vector<void*> raw;
  raw.reserve(args.size());
  for (const auto& a : args) raw.push_back(a.get());
  invoke_native(ce, version, raw.data());
}

}  // namespace cei::rt
