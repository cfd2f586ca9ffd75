// RULE: structured_binding_result
// `auto [a, b] = ce(v);` declares no variable the result can go to: the call is waited for there
// (issue 39, item 15: ceic wrote `out<...>(, "")`).
#include "poly.hpp"

// -----
long bound(const Vec& v) {
  auto [lo, hi] = poly::minmax(v);
  // CHECK: auto [lo, hi] = ::cei::rt::call<std::pair<long, long>>(__cei_ce_PolyCEI_minmax, ::cei::rt::in<std::vector<long>>(v, "v")).get();
  return lo + hi;
}

// -----
// Near form: a variable takes the result without a wait.
long declared(const Vec& v) {
  auto mm = poly::minmax(v);
  // CHECK: std::pair<long, long> mm{}; ::cei::rt::Scope __cei_scope_mm(mm); ::cei::rt::call_into<std::pair<long, long>>(
  return mm.first;
}
