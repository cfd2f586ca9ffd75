// red-team p41 on main dfbdd4b: W1: 'for (const auto& kv : m)' read kv.second while vbump(m[1]) was
// pending (sync_read(kv) keyed the pair, not m[1]). forms: minimal: map<int,DVec> m[1] inout, then
// host read through range-for `for (const auto& kv : m)` kv.second
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::map<int, DVec> m;
  m[1] = DVec{1, 2, 3};
  fz::vbump(m[1], 2.0);
  dig::begin("end");
  for (const auto& kv : m) dig::put("v", kv.second);
  dig::end();
  return 0;
}
