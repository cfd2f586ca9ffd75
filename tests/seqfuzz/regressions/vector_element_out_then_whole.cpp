// seqfuzz regression: like element_out_then_whole.cpp with a std::vector element (a[4]) as the
// `out` scalar and the whole vector `inout` next.
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a(6, 0.0);
  DVec r{1, 2, 3, 4, 5, 6};
  fz::sget(a[4], r, 1);
  fz::vbump(a, 2.0);
  dig::begin("end"); dig::put("a", a); dig::end();
  return 0;
}
