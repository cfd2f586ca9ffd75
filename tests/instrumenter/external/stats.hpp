#pragma once

#include <vector>

namespace stats {
double mean(const std::vector<double>& v);
double spread(const std::vector<double>& v);
std::vector<double> squares(const std::vector<double>& v);
}  // namespace stats
