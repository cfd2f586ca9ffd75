// red-team p66 on main dfbdd4b: build error: SyncAtExit named static member Pool::pool unqualified
// (and its host read was unsynced). forms: accessor returning an element of a static member
// container (pool), used as inout; read via another function
#include "ces.hpp"
#include "digest.hpp"

struct Pool {
  static std::vector<DVec> pool;
  static DVec& get(int i) { return pool[i]; }
};
std::vector<DVec> Pool::pool(2, DVec{1, 2, 3});

int main() {
  fz::vbump(Pool::get(1), 2.0);
  double x = Pool::pool[1][0];
  dig::begin("end");
  dig::put("x", x);
  dig::put("pool", Pool::pool);
  dig::end();
  return 0;
}
