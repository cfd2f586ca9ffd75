// The Core Elements of the storage programs: each updates its argument in place and sleeps a
// little first, so a host access that misses its wait reads a value that is not there yet.
#pragma once

#include <cei/array.hpp>

#include <string>
#include <vector>

namespace store {
void inc(std::vector<int>& v);              // v[i] += 1
void scale(std::vector<int>& v, int k);     // v[i] *= k
void twice(cei::Matrix<float>& m);          // m(i, j) *= 2
void shout(std::string& s);                 // upper case
}  // namespace store

// An instance CE whose class holds a buffer of its own.
struct Tally {
  std::vector<long> hist;
  long total = 0;
  long add(long x);  // total += x; returns total
  template <class Archive>
  void serialize(Archive& ar) {
    ar(hist, total);
  }
};
