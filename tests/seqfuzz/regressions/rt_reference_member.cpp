// red-team p111 on main dfbdd4b: W4: vbump(s.ref) of 'struct V { DVec& ref; }' was tracked under s,
// not a (now refused). forms: struct with a reference member (struct V { DVec& ref; }): CE inout on
// s.ref, host read of the referenced variable
#include "ces.hpp"
#include "digest.hpp"

struct V {
  DVec& ref;
};

int main() {
  DVec a{1, 2, 3};
  V s{a};
  fz::vbump(s.ref, 2.0);
  double x = a[0];
  dig::begin("end");
  dig::put("x", x);
  dig::put("a", a);
  dig::end();
  return 0;
}
