// RULE: approximate_call
// A call the program writes to a CE's approximation ([[cei::approximate]]) asks for that very
// result: it stays a plain call, never a task that might run the accurate version instead.
#include "approx.hpp"

// -----
void approximate_calls() {
  LVec v = {1, 2};
  approx_fast::smooth(v, 3);
  // CHECK: approx_fast::smooth(v, 3);
  // CHECK-NOT: __cei_ce_ApproxCEI_smooth
}

// -----
// Near form: the call of the accurate version is the CE's task (its significance decides).
void not_this_rule() {
  LVec v = {1, 2};
  approx_exact::smooth(v, 3);
  // CHECK: ::cei::rt::call<void>(__cei_ce_ApproxCEI_smooth, ::cei::rt::inout<std::vector<long>>(v, "v"), ::cei::rt::in<long>(3));
}
