// red-team p19 on main dfbdd4b: W3: the in copy of structured binding 'a' of 'auto& [a, b] = p' was
// taken unsynced. forms: structured binding used as `in` after a pending inout on p.first (docs:
// refused at use)
#include <utility>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::pair<DVec, DVec> p{DVec{1, 2, 3}, DVec{4, 5, 6}};
  fz::vbump(p.first, 3.0);
  auto& [a, b] = p;
  double s = fz::vsum(a);
  dig::begin("end");
  dig::put("s", s);
  dig::put("first", p.first);
  dig::end();
  return 0;
}
