// red-team p42 on main dfbdd4b: W1: 'for (auto& [k, v] : m)': v read unsynced while vbump(m[1]) was
// pending. forms: map element inout, then host read through range-for structured binding `for
// (const auto& [k, v] : m)`
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::map<int, DVec> m;
  m[1] = DVec{1, 2, 3};
  fz::vbump(m[1], 2.0);
  dig::begin("end");
  for (const auto& [k, v] : m) {
    dig::put("k", k);
    dig::put("v", v);
  }
  dig::end();
  return 0;
}
