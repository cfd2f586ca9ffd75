// A lambda's parameter is its by-reference capture.
#include "ces.hpp"
#include "digest.hpp"
#include <cstdio>
int main() {
  DVec a{1, 2, 3};
  auto f = [&a](const DVec& s) {
    fz::vbump(a, 7.0);
    return s[0];
  };
  std::printf("%g\n", f(a));
  return 0;
}
