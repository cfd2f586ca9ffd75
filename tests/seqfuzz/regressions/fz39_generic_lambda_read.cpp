// A generic lambda reads and writes a variable it captured by reference, which a task writes:
// ceic skipped every use inside a generic lambda (a template), so the read did not wait for the
// task (found while reducing seqfuzz seed 1507). Waits now.
#include <cmath>
#include <cstdio>

#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  DVec b{2, 6, 5, 3, 5, 8};
  double chk = 0;
  b = fz::vscale(a, 9.0);
  auto add = [&](auto k) { chk = std::fmod(chk + b[1] * k, 1009.0); };
  add(2.0);
  fz::vbump(b, 1.0);
  auto put = [&](auto k) { b[0] = k; };
  put(7.0);
  fz::vbump(b, 3.0);
  add(1);
  dig::begin("end");
  dig::put("b", b);
  dig::put("chk", chk);
  dig::end();
  return 0;
}
