// seqfuzz regression (found by seed 1): a task updates rows[0] in place, then a CE's result is
// assigned to one of its elements (rows[0][1] = ce(...)). The instrumented program loses the
// assignment: rows[0][1] ends as vbump's 4, not mtrace's 0.
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::vector<DVec> rows(3, DVec{1, 2, 3, 4, 5, 6});
  DMat z(3, 4);
  fz::vbump(rows[0], 0.0);
  rows[0][1] = fz::mtrace(z);
  dig::begin("end"); dig::put("rows", rows); dig::end();
  return 0;
}
