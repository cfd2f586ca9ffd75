// seqfuzz regression (found by seed 106: a crash): like element_of_pending_result.cpp, with a CE
// result assigned to the element (M(2, 3) = ce(...)) while M's own value is still pending.
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  DMat M = fz::mmake(3, 4, 11.0);
  M(2, 3) = fz::vsum(a);
  dig::begin("end"); dig::put("M", M); dig::end();
  return 0;
}
