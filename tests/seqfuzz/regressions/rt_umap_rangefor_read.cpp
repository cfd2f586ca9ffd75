// red-team p57 on main dfbdd4b: W1: range-for over an unordered_map read kv.second unsynced.
// forms: unordered_map<int,DMat> um[k] inout, then host read through range-for kv.second (sorted
// keys: one key)
#include <unordered_map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::unordered_map<int, DMat> um;
  um[4] = DMat(2, 2);
  DMat M = fz::mmake(2, 2, 3.0);
  fz::maxpy(um[4], M, 2.0);
  dig::begin("end");
  for (const auto& kv : um) dig::put("m", kv.second);
  dig::end();
  return 0;
}
