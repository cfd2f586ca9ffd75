// CEI's side of the overhead benchmark.
#pragma once

#include "patterns.hpp"

namespace bench {
// Starts the runtime and its workers, and waits for the devices opening in the background: what
// StarPU's child does in starpu_init, before its timings.
void cei_warm_up();
double cei_time(const std::string& pattern, std::size_t tasks);
double cei_bytes_in_flight(const std::string& pattern, std::size_t tasks);
}  // namespace bench
