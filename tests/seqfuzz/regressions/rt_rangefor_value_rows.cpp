// red-team p79 on main dfbdd4b: W2: 'for (DVec r : rows)' (a copy) read rows unsynced.
// forms: by-value range-for over vector<DVec> (`for (DVec r : rows)`) after a CE on rows[1]
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::vector<DVec> rows(2, DVec{1, 2, 3});
  fz::vbump(rows[1], 2.0);
  double s = 0;
  for (DVec r : rows) s += r[0];
  dig::begin("end");
  dig::put("s", s);
  dig::end();
  return 0;
}
