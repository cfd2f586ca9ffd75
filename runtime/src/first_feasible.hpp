// The Decision Engine's fallback until a policy is registered: the first platform (in the
// order they were added: the CPU first) that can run the task.
#pragma once

#include <cei/rt/policy.hpp>

namespace cei::rt {

class FirstFeasible final : public Policy {
 public:
  const char* name() const override { return "first"; }
  bool by_forecasts() const override { return false; }
  std::size_t choose(const CeInfo&, std::span<const Candidate>) override { return 0; }
};

}  // namespace cei::rt
