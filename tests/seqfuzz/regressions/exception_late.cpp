// seqfuzz regression: the sequential program stops at the throwing call; the instrumented one
// threw at the read of its result, so the call between them (vbump) had run, until ceic waited
// for CE calls inside try blocks at the call.
#include "ces.hpp"
#include "digest.hpp"

#include <stdexcept>

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  DVec b{2, 6, 5, 3, 5, 8};
  try {
    double e = fz::checked(a, 0.0);
    fz::vbump(b, 1.0);
    dig::begin("e");
    dig::put("e", e);
    dig::end();
  } catch (const std::exception&) {
    std::printf("caught\n");
  }
  dig::begin("end");
  dig::put("b", b);
  dig::end();
  return 0;
}
