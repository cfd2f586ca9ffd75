// red-team p04 on main dfbdd4b: W1: range-for over a map read kv.second unsynced after inserts
// between tasks. forms: map element inout pending, then insertion of new keys (m[k] = ..., emplace)
// and erase of another key
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::map<int, DVec> m;
  m[1] = DVec{1, 2, 3, 4};
  m[2] = DVec{2, 2, 2, 2};
  fz::vbump(m[1], 5.0);
  m[7] = DVec{7, 7, 7};
  m.emplace(0, DVec{0, 1});
  fz::vbump(m[7], 1.0);
  m.erase(2);
  fz::vbump(m[1], 1.0);
  dig::begin("end");
  for (const auto& kv : m) {
    dig::put("k", kv.first);
    dig::put("v", kv.second);
  }
  dig::end();
  return 0;
}
