// StarPU's side of the overhead benchmark: one scheduler per process (StarPU reads its
// configuration once), so the driver runs it in a child process per scheduler.
#pragma once

#include "patterns.hpp"

namespace bench {
class StarPU {
 public:
  StarPU(const std::string& scheduler, int cpus);
  ~StarPU();
  double time(const std::string& pattern, std::size_t tasks);
  double bytes_in_flight(const std::string& pattern, std::size_t tasks);
};
}  // namespace bench
