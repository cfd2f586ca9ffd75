#include "stats.hpp"

#include <algorithm>

namespace stats {
double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}
double spread(const std::vector<double>& v) {
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi - *lo;
}
std::vector<double> squares(const std::vector<double>& v) {
  std::vector<double> r;
  for (double x : v) r.push_back(x * x);
  return r;
}
}  // namespace stats
