// RULE: scalar_future
// `double r = g(i); f(acc, r);`: r, a variable of exactly f's parameter type (any type, a scalar
// too), goes by address, `in<double>(r)`: f's task takes r's pending value; nothing waits.
#include "ops.hpp"
#include "rows.hpp"

// -----
void scalar_future() {
  double acc = 0;
  double r = ops::work(1, 10);
  ops::accumulate(acc, r);
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_accumulate, ::cei::rt::inout<double>(acc, "acc"), ::cei::rt::in<double>(r, "r"));
  long q = ops::busy(2, 1);
  long z = ops::busy(q, 1);
  // CHECK: ::cei::rt::call_into<long>(::cei::rt::out<long>(z, "z"), __cei_ce_OpsCEI_busy, ::cei::rt::in<long>(q, "q"), ::cei::rt::in<long>(1))
  q = ops::checked_div(q, z);
  // CHECK: ::cei::rt::call_into<long>(::cei::rt::out<long>(q, "q"), __cei_ce_OpsCEI_checked_div, ::cei::rt::in<long>(q, "q"), ::cei::rt::in<long>(z, "z"));
  // CHECK-NOT: sync_read(r)
  // CHECK-NOT: sync_read(q)
  // CHECK-NOT: sync_read(z)
}

// -----
// Near forms, evaluated by the host at the call, which waits for the variables they read: an
// expression of r, a variable of another type (a float for a double parameter), an element.
void not_this_rule(const Row& row) {
  long q = ops::busy(2, 1);
  ops::busy(q + 1, 1);
  // CHECK: ::cei::rt::in<long>(::cei::rt::sync_read(q) + 1)
  double acc = 0;
  float t = vec::total(row);
  ops::accumulate(acc, t);
  // CHECK: ::cei::rt::in<double>(::cei::rt::sync_read(t))
  std::vector<long> v(2);
  v[0] = ops::busy(1, 1);
  ops::busy(v[0], 1);
  // CHECK: ::cei::rt::in<long>(::cei::rt::sync_read(v)[0], "v[0]")
}
