// RULE: void_call
// `ce(a);` (a void CE, or a result left unused, that writes an argument: see no_output_waited)
// as a statement of its own, also the body of an if or a loop: submitted,
// `::cei::rt::call<R>(...);`, and not waited for.
#include "ops.hpp"

// -----
void void_calls(bool c) {
  Vec v = {1, 2};
  ops::scale(v, 2);
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(v, "v"), ::cei::rt::in<long>(2));
  ops::fill(v, 2, 1);
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_fill, ::cei::rt::out<std::vector<long>>(v, "v"), ::cei::rt::in<long>(2), ::cei::rt::in<long>(1));
  if (c) ops::scale(v, 3);
  else ops::fill(v, 2, 0);
  // CHECK: if (c) ::cei::rt::call<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(v, "v"), ::cei::rt::in<long>(3));
  // CHECK: else ::cei::rt::call<void>(__cei_ce_OpsCEI_fill, ::cei::rt::out<std::vector<long>>(v, "v"), ::cei::rt::in<long>(2), ::cei::rt::in<long>(0));
  for (long i = 0; i < 2; ++i) ops::scale(v, i);
  // CHECK: for (long i = 0; i < 2; ++i) ::cei::rt::call<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(v, "v"), ::cei::rt::in<long>(i, "i"));
  // CHECK-NOT: .get()
}

// -----
// Near forms: the unused result of a call inside a larger expression is waited for there.
void not_this_rule(bool c) {
  Vec v = {1, 2};
  c ? ops::sum(v) : 0;
  // CHECK: c ? ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v, "v")).get() : 0;
  ops::busy(1, 1), ops::busy(2, 1);
  // CHECK: ::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(1), ::cei::rt::in<long>(1)).get(), ::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(2), ::cei::rt::in<long>(1)).get();
}
