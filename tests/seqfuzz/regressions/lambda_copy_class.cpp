// seqfuzz regression: a lambda that captures a task's vector by copy. ceic rewrites the capture
// itself into `[::cei::rt::sync_read(v)]`, which does not compile (a scalar capture is fine: its
// reference sits under an implicit cast, the vector's under the copy constructor).
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec v{1, 2, 3, 4, 5, 6};
  fz::vbump(v, 1.0);
  auto f = [v]() { return v[0]; };
  fz::vbump(v, 1.0);
  dig::begin("end"); dig::put("f", f()); dig::put("v", v); dig::end();
  return 0;
}
