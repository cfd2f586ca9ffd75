// red-team p48 on main dfbdd4b: W3: host read of structured binding 'b' unsynced while
// vbump(p.second) was pending. forms: CE inout on p.second, then host read through a structured
// binding declared earlier (auto& [a, b] = p)
#include <utility>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::pair<DVec, DVec> p{DVec{1, 2, 3}, DVec{4, 5, 6}};
  auto& [a, b] = p;
  fz::vbump(p.second, 1.0);
  double b0 = b[0];
  dig::begin("end");
  dig::put("b0", b0);
  dig::put("b", b);
  dig::put("a", a);
  dig::end();
  return 0;
}
