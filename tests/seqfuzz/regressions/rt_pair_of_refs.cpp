// red-team p114 on main dfbdd4b: W4: vbump(pr.first) of std::pair<DVec&, DVec&> was tracked under
// pr (now refused). forms: std::pair<DVec&, DVec&> / std::tie of tracked vectors, CE inout on
// pr.first, host read of the original
#include <utility>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{1, 2, 3}, b{4, 5, 6};
  std::pair<DVec&, DVec&> pr{a, b};
  fz::vbump(pr.first, 2.0);
  double x = a[0];
  dig::begin("end");
  dig::put("x", x);
  dig::put("a", a);
  dig::end();
  return 0;
}
