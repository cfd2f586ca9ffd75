// seqfuzz regression (found by seeds 106, 119, 125: a crash): M's value comes from a CE
// (DMat M = ce(...) becomes `DMat M{}; ... assign(M, <pending>)`), and the next call passes one of
// its elements as an `out` argument. The element is taken on the host while M is still the empty
// matrix: the task writes outside it (a segfault, or a lost value).
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  DMat M = fz::mmake(3, 4, 11.0);
  fz::sget(M(1, 1), a, 2);
  dig::begin("end"); dig::put("M", M); dig::end();
  return 0;
}
