// RULE: result_assign
// `x = ce(a, b);` where x is a variable, member or element of exactly the CE's result type: the
// task's result becomes x's next value (::cei::rt::call_into, with an `out` of x that names it);
// nothing waits at the call.
#include "ops.hpp"

struct Stats {
  long total = 0;
  Vec hist;
};

// -----
void variable() {
  Vec a = {1, 2}, b = {3, 4};
  Vec c;
  c = ops::add(a, b);
  // CHECK: ::cei::rt::call_into<std::vector<long>>(::cei::rt::out<std::vector<long>>(c, "c"), __cei_ce_OpsCEI_add, ::cei::rt::in<std::vector<long>>(a, "a"), ::cei::rt::in<std::vector<long>>(b, "b"));
}

void member_and_element() {
  Vec a = {1, 2};
  Stats s;
  s.total = ops::sum(a);
  // CHECK: ::cei::rt::call_into<long>(::cei::rt::out<long>(s.total, "s.total", &(s)), __cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a"));
  s.hist = ops::iota(3, 0);
  // CHECK: ::cei::rt::call_into<std::vector<long>>(::cei::rt::out<std::vector<long>>(s.hist, "s.hist", &(s)), __cei_ce_OpsCEI_iota, ::cei::rt::in<long>(3), ::cei::rt::in<long>(0));
  std::vector<long> parts(2);
  parts[1] = ops::sum(a);
  // CHECK: ::cei::rt::call_into<long>(::cei::rt::out<long>(parts[1], "parts[1]", &(parts)), __cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a"));
  // CHECK-NOT: .get()
}

// -----
// Near forms, waited for where they are: a target of another type (the host converts the
// result), an assignment that is not a statement of its own, a target ceic cannot root (`*p`:
// assigned by the host after a wait, docs "Arguments and aliases").
void not_this_rule() {
  Vec a = {1, 2};
  double d = 0;
  d = ops::sum(a);
  // CHECK: d = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
  long x = 0, y = 0;
  x = y = ops::sum(a);
  // CHECK: x = y = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
  long* p = &x;
  *p = ops::sum(a);
  // CHECK: *p = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
  // CHECK-NOT: ::cei::rt::call_into<
}
