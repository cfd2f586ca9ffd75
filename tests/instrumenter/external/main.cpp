#include <cstdio>

#include "stats.hpp"

int main() {
  std::vector<double> v;
  for (int i = 1; i <= 10; ++i) v.push_back(i);
  double m = stats::mean(v);
  double s = stats::spread(v);
  std::vector<double> sq = stats::squares(v);
  double total = 0;
  for (double x : sq) total += x;
  std::printf("mean=%g spread=%g squares=%g\n", m, s, total);
  return 0;
}
