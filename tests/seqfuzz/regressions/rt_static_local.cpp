// red-team p71 on main dfbdd4b: build error: SyncAtExit of a static local emitted before its
// declaration. forms: function-static local vector used as CE inout, read in the same function,
// function called 3 times
#include "ces.hpp"
#include "digest.hpp"

static double tick(double k) {
  static DVec acc{1, 2, 3};
  fz::vbump(acc, k);
  return acc[0];
}

int main() {
  double a = tick(1.0);
  double b = tick(2.0);
  double c = tick(3.0);
  dig::begin("end");
  dig::put("a", a);
  dig::put("b", b);
  dig::put("c", c);
  dig::end();
  return 0;
}
