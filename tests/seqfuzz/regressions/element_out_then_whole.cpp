// seqfuzz regression (found by seed 5): a task writes one element of a cei::Vector as an `out`
// scalar (av(4)), the next task updates the whole vector in place; the instrumented program lets
// the second task run on the old element (av(4) ends as 2, not 2 + 2).
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DArr av(6);
  DVec c(6, 2.0);
  DVec r{1, 2, 3, 4, 5, 6};
  fz::sget(av(4), r, 1);
  fz::arow(av, c);
  dig::begin("end"); dig::put("av", av); dig::end();
  return 0;
}
