// red-team p110 on main dfbdd4b: W5: f(rows[1], rows): CE on r, host read of all[1] unsynced.
// forms: helper taking an element and its container by reference (f(rows[1], rows)): CE on the
// element param, host read via the container param
#include "ces.hpp"
#include "digest.hpp"

static double f(DVec& r, const std::vector<DVec>& all) {
  fz::vbump(r, 2.0);
  return all[1][0];
}

int main() {
  std::vector<DVec> rows(2, DVec{1, 2, 3});
  double x = f(rows[1], rows);
  dig::begin("end");
  dig::put("x", x);
  dig::end();
  return 0;
}
