// RULE: nested_call
// `f(g(x));` with f and g CEs, f taking g's result type as an `in`: g's pending result goes into
// f's task directly; nothing waits.
#include "ops.hpp"

// -----
void nested() {
  Vec a = {1, 2}, b = {3, 4};
  long s = ops::sum(ops::add(a, b));
  // CHECK: __cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(::cei::rt::call<std::vector<long>>(__cei_ce_OpsCEI_add, ::cei::rt::in<std::vector<long>>(a, "a"), ::cei::rt::in<std::vector<long>>(b, "b"))));
  long t = ops::busy(ops::busy(1, 1), 1);
  // CHECK: __cei_ce_OpsCEI_busy, ::cei::rt::in<long>(::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(1), ::cei::rt::in<long>(1))), ::cei::rt::in<long>(1));
  Vec c = ops::add(a, ops::add(a, ops::iota(2, 0)));
  // CHECK: ::cei::rt::in<std::vector<long>>(::cei::rt::call<std::vector<long>>(__cei_ce_OpsCEI_add, ::cei::rt::in<std::vector<long>>(a, "a"), ::cei::rt::in<std::vector<long>>(::cei::rt::call<std::vector<long>>(__cei_ce_OpsCEI_iota, ::cei::rt::in<long>(2), ::cei::rt::in<long>(0)))))
  // CHECK-NOT: .get()
}

// -----
// Near forms, where the inner result is not f's parameter itself: waited for, then passed (an
// expression of it; a double result converted to f's long parameter).
void not_this_rule() {
  ops::busy(ops::busy(1, 1) + 1, 1);
  // CHECK: ::cei::rt::in<long>(::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(1), ::cei::rt::in<long>(1)).get() + 1)
  ops::busy(ops::work(1, 2), 1);
  // CHECK: ::cei::rt::in<long>(::cei::rt::call<double>(__cei_ce_OpsCEI_work, ::cei::rt::in<long>(1), ::cei::rt::in<long>(2)).get())
}
