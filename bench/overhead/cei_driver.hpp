// CEI's side of the overhead benchmark.
#pragma once

#include "patterns.hpp"

namespace bench {
double cei_time(const std::string& pattern, std::size_t tasks);
double cei_bytes_in_flight(const std::string& pattern, std::size_t tasks);
}  // namespace bench
