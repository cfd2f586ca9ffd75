// Versions that differ on purpose, for [[cei::approximate]] and [[cei::significance]]: the exact
// smooth adds 1 where the approximation does not, so every printed value says which one ran.
#pragma once

#include <vector>

using LVec = std::vector<long>;

namespace approx_exact {
void smooth(LVec& v, long level);  // v[i] = v[i] * 10 + 1
void halve(LVec& v, long level);   // v[i] /= 2
long total(const LVec& v);
}  // namespace approx_exact

namespace approx_fast {
void smooth(LVec& v, long level);  // v[i] = v[i] * 10
}  // namespace approx_fast
