// red-team p82 on main dfbdd4b: W2: 'for (Acc a : accs)' read accs unsynced.
// forms: by-value range-for over vector<Pack> / vector<Acc> / vector<DMat> after CEs on elements
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::vector<Acc> accs(2);
  accs[1].add(5.0);
  double t = 0;
  for (Acc a : accs) t += a.total;
  std::vector<DMat> mats(2, DMat(2, 2));
  DMat M = fz::mmake(2, 2, 1.0);
  fz::maxpy(mats[0], M, 1.0);
  double u = 0;
  for (auto m : mats) u += m(1, 1);
  dig::begin("end");
  dig::put("t", t);
  dig::put("u", u);
  dig::end();
  return 0;
}
