// red-team p76 on main dfbdd4b: W2: 'for (auto kv : m)' (a copy) read m unsynced.
// forms: map<int,DVec> element inout, then by-value range-for copy `for (auto kv : m)` and a copy
// of the map
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::map<int, DVec> m{{1, DVec{1, 2, 3}}};
  fz::vbump(m[1], 2.0);
  dig::begin("a");
  for (auto kv : m) dig::put("v", kv.second);
  dig::end();
  fz::vbump(m[1], 1.0);
  auto copy = m;
  dig::begin("b");
  dig::put("c", copy[1]);
  dig::end();
  return 0;
}
