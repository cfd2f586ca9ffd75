// red-team p70 on main dfbdd4b: build error: SyncAtExit named namespace global data::G unqualified.
// forms: global container inside a namespace used qualified (data::G[1]) and via using-directive
// (G[0]), host reads
#include "ces.hpp"
#include "digest.hpp"

namespace data {
std::vector<DVec> G(2, DVec{1, 2, 3});
}

int main() {
  fz::vbump(data::G[1], 2.0);
  double x = data::G[1][0];
  using namespace data;
  fz::vbump(G[0], 1.0);
  double y = G[0][0];
  dig::begin("end");
  dig::put("x", x);
  dig::put("y", y);
  dig::put("G", data::G);
  dig::end();
  return 0;
}
