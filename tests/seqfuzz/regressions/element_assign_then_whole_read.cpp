// seqfuzz regression (found by seed 268): a CE result is assigned to one element (a[3] = ce(...)),
// then a task reads the whole vector; it runs on the old element (sum 23, not 22).
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  DMat z(3, 4);
  a[3] = fz::mtrace(z);
  double s = fz::vsum(a);
  dig::begin("end"); dig::put("s", s); dig::put("a", a); dig::end();
  return 0;
}
