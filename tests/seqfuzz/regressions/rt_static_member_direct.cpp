// red-team p69 on main dfbdd4b: build error: SyncAtExit named static member Pool::pool unqualified.
// forms: static data member container used directly as CE argument (Pool::pool[1]) then host read
// Pool::pool[1][0]
#include "ces.hpp"
#include "digest.hpp"

struct Pool {
  static std::vector<DVec> pool;
};
std::vector<DVec> Pool::pool(2, DVec{1, 2, 3});

int main() {
  fz::vbump(Pool::pool[1], 2.0);
  double x = Pool::pool[1][0];
  dig::begin("end");
  dig::put("x", x);
  dig::put("pool", Pool::pool);
  dig::end();
  return 0;
}
