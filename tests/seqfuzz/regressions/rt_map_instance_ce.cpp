// red-team p58 on main dfbdd4b: W1: range-for over a map of Acc read kv.second unsynced after
// instance CE calls. forms: instance CE on map<int,Acc> elements (accm[k].add), then host read
// through range-for kv.second
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  std::map<int, Acc> accm;
  accm[3].add(5.0);
  accm[3].add(2.0);
  dig::begin("end");
  for (const auto& kv : accm) dig::put("acc", kv.second);
  dig::end();
  return 0;
}
