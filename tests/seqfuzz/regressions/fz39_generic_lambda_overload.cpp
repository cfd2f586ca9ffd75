// seqfuzz seed 1507, reduced: `fz::vbump` has a non-CE overload, so in a generic lambda
// `[&](auto k) { fz::vbump(b, k); }` clang leaves the call unresolved; ceic neither refused nor
// rewrote it, and it ran on the host while the task writing b (`b = fz::vscale(...)`) was still
// running (wrong output under every policy). Refused now, at the call.
#include <cstdio>

#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec b{2, 6, 5, 3, 5, 8};
  Pack pk;
  b = fz::vscale(pk.v, 9.0);
  auto f5 = [&](auto k) { fz::vbump(b, k); };
  f5(2.0);
  DVec t = fz::vscale(b, 8.0);
  dig::begin("end");
  dig::put("b", b);
  dig::put("t", t);
  dig::end();
  return 0;
}
