// seqfuzz regression (issue 16): an inout argument reached through .at() is not tracked, so the
// host reads rows[1] before the task wrote it.
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::vector<DVec> rows(3, DVec{1, 2, 3, 4, 5, 6});
  fz::vbump(rows.at(1), 2.0);
  dig::begin("end"); dig::put("rows", rows); dig::end();
  return 0;
}
