// A policy for the remote tests: every task that a remote platform can take goes there (what
// CEI_POLICY=only:<node> does while the node can run it), without being only:<node> itself.
#pragma once

#include <cei/rt/policy.hpp>

#include <string_view>

namespace remote_test {

class PreferRemote : public cei::rt::Policy {
 public:
  const char* name() const override { return "prefer-remote"; }
  std::size_t choose(const cei::rt::CeInfo&, std::span<const cei::rt::Candidate> c) override {
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (std::string_view(c[i].platform->kind()) == "remote") return i;
    }
    return 0;
  }
};

}  // namespace remote_test
