// red-team p03 on main dfbdd4b: W1: range-for over a map read kv.second unsynced.
// forms: std::map<int,DVec> m[k] inout, m.at(k) inout / in, result into m[k], iterate to print
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::map<int, DVec> m;
  m[0] = DVec{1, 2, 3, 4};
  m[1] = DVec{5, 6, 7, 8};
  m[2] = DVec{9, 1, 2, 3};
  fz::vbump(m[1], 2.0);
  fz::vbump(m.at(2), 3.0);
  m[3] = fz::vscale(m.at(1), 2.0);
  double s = fz::vsum(m[3]);
  dig::begin("end");
  for (const auto& kv : m) dig::put("m", kv.second);
  dig::put("s", s);
  dig::end();
  return 0;
}
