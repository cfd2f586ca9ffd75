// The Core Elements of the argument-root programs: each updates or reads one row in place, and
// sleeps a little, so a host access that misses its wait reads a value that is not there yet.
#pragma once

#include <vector>

using Row = std::vector<float>;

namespace vec {
void bump(Row& v, float by);                              // v[i] += by
void axpy(const Row& a, const Row& b, Row& c);            // c[i] += a[i] * b[i]
float total(const Row& v);
// Holds a CPU worker for `ms` milliseconds, then v[0] += 1; counts how many run at once.
void hold(Row& v, long ms);
long peak_concurrency();
void reset_peak();
}  // namespace vec
