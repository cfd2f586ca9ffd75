// The Core Elements' native code shared by the sequential-equivalence programs. Every CE sleeps a
// little, so a host access that misses its wait reads a value that is not there yet.
#pragma once

#include <vector>

using Vec = std::vector<long>;

namespace ops {
Vec add(const Vec& a, const Vec& b);
Vec iota(long n, long start);
long sum(const Vec& a);
void fill(Vec& v, long n, long value);
void scale(Vec& v, long k);
long checked_div(long a, long b);  // throws std::domain_error when b == 0
// Holds a CPU worker for `ms` milliseconds and returns x; counts how many run at once.
long busy(long x, long ms);
// CPU-bound, no sleep: `iters` steps of a chaotic recurrence seeded by `seed`, so the result
// depends on every step and the loop cannot be dropped.
double work(long seed, long iters);
void accumulate(double& acc, double x);  // acc = acc / 2 + x: the order of the calls matters
long peak_concurrency();
void reset_peak();
}  // namespace ops

// Two versions of one CE: the runtime may run either.
namespace sort_a {
Vec sort(const Vec& v);
}
namespace sort_b {
Vec sort(const Vec& v);
}

// An instance CE: the callee is an inout parameter.
struct Counter {
  long value = 0;
  long bumps = 0;
  void bump(long by);
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value, bumps);
  }
};
