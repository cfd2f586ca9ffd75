// red-team p74 on main dfbdd4b: W1: range-for over a map<int,double> read kv.second unsynced after
// an out task. forms: map<int,double> element as scalar out (sget(md[1], ...)), then host read via
// range-for kv.second and by-value `for (auto kv : md)`
#include <map>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  std::map<int, double> md{{1, 0.0}, {2, 0.0}};
  fz::sget(md[1], a, 2);
  dig::begin("r1");
  for (const auto& kv : md) dig::put("v", kv.second);
  dig::end();
  fz::sget(md[2], a, 5);
  dig::begin("r2");
  for (auto kv : md) dig::put("v", kv.second);
  dig::end();
  return 0;
}
