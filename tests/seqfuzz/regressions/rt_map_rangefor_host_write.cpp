// red-team p120 on main dfbdd4b: W1: host write through kv.second of a map range-for raced the
// pending task. forms: map element inout (OpenCL-capable vbump), host WRITE through range-for
// kv.second, then an OpenCL-capable CE reads m[1]
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::map<int, DVec> m{{1, DVec{1, 2, 3}}};
  fz::vbump(m[1], 2.0);
  for (auto& kv : m) kv.second[0] = 100.0;
  double s = fz::vsum(m[1]);
  dig::begin("end");
  dig::put("s", s);
  dig::put("m1", m[1]);
  dig::end();
  return 0;
}
