// RULE: overload_resolution
// A call is a CE's when clang resolved it to the CE's native version, with the CE's signature: a
// non-CE overload of the same name stays a plain call, its arguments unconverted (issue 39,
// item 12).
#include "poly.hpp"

// -----
void calls(Vec& v) {
  poly::stretch(v, 2.5);
  // CHECK: poly::stretch(::cei::rt::sync(v), 2.5);
  poly::stretch(v, 2L);
  // CHECK: ::cei::rt::call<void>(__cei_ce_PolyCEI_stretch, ::cei::rt::inout<std::vector<long>>(v, "v"), ::cei::rt::in<long>(2L));
  // CHECK-NOT: in<long>(2.5)
}
