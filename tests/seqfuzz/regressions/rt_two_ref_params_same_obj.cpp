// red-team p113 on main dfbdd4b: W5: step(a, a): CE on x, host read of y (the same object)
// unsynced. forms: helper with two reference params bound to the same object (step(a, a)): CE inout
// on x, host read of y
#include "ces.hpp"
#include "digest.hpp"

static double step(DVec& x, const DVec& y) {
  fz::vbump(x, 3.0);
  return y[0];
}

int main() {
  DVec a{1, 2, 3};
  double r = step(a, a);
  dig::begin("end");
  dig::put("r", r);
  dig::put("a", a);
  dig::end();
  return 0;
}
