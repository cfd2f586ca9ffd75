// A global that the seqfuzz programs' tasks write (each program defines it) and inline functions
// that read or write it from a header, where ceic rewrites nothing (issue 39, item 9): a call of
// one must wait for the global's tasks in the calling function.
#pragma once

#include "ces.hpp"

#include <cmath>
#include <cstddef>

extern DVec gv;

inline double gfirst(int e) {
  return gv[static_cast<std::size_t>(e)];
}
inline double gtwice(int e) {
  return std::fmod(gfirst(e) * 2.0, 1009.0);
}
inline double gsum() {
  double s = 0;
  for (double x : gv) s = std::fmod(s + x, 1009.0);
  return s;
}
inline void gset(int e, double x) {
  gv[static_cast<std::size_t>(e)] = x;
}
