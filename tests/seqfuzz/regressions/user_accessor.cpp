// seqfuzz regression (issue 16): an inout argument returned by a user class's accessor
// (g.row(0)) is not tracked.
#include "ces.hpp"
#include "digest.hpp"

int main() {
  Grid g;
  fz::vbump(g.row(0), 3.0);
  dig::begin("end"); dig::put("g", g); dig::end();
  return 0;
}
