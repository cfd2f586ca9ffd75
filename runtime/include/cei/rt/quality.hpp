// The quality a task runs at: its CE's accurate versions, one of its approximate versions
// ([[cei::approximate]], [[cei::opencl(..., approximate = true)]]), or not at all (a droppable CE,
// whose outputs then keep the values they had). The Decision Engine chooses it per task from the
// CE's significance and its group's energy budget or accuracy ratio (decision/group_plan.hpp).
#pragma once

#include <cstdint>

namespace cei::rt {

enum class Quality : std::uint8_t { Accurate, Approximate, Dropped };

// "accurate", "approximate", "dropped": for summaries and logs.
constexpr const char* to_string(Quality q) {
  switch (q) {
    case Quality::Accurate:
      return "accurate";
    case Quality::Approximate:
      return "approximate";
    case Quality::Dropped:
      return "dropped";
  }
  return "?";
}

}  // namespace cei::rt
