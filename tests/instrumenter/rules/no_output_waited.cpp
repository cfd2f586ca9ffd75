// RULE: no_output_waited
// A call, as a statement, of a CE that writes no argument (its result, if any, dropped) is waited
// for at the call: nothing else would observe it, so an exception it throws must stop the code
// after it there, as in the sequential program (issue 39, item 8).
#include "ops.hpp"

// -----
void checks(Vec& w, long d) {
  ops::checked_div(10, d);
  // CHECK: ::cei::rt::call<long>(__cei_ce_OpsCEI_checked_div, ::cei::rt::in<long>(10), ::cei::rt::in<long>(d, "d")).get();
  ops::scale(w, 5);
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(w, "w"), ::cei::rt::in<long>(5));
}

// -----
// Near form: a CE that writes an argument is observed through it, and is not waited for.
void writes(Vec& w) {
  ops::fill(w, 3, 1);
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_fill, ::cei::rt::out<std::vector<long>>(w, "w"), ::cei::rt::in<long>(3), ::cei::rt::in<long>(1));
}
