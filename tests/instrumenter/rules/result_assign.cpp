// RULE: result_assign
// `x = ce(a, b);` where x is a variable, member or element of exactly the CE's result type: the
// task's result is assigned to x when it has run (::cei::rt::assign); nothing waits at the call.
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
  // CHECK: ::cei::rt::assign(c, ::cei::rt::call<std::vector<long>>(__cei_ce_OpsCEI_add, ::cei::rt::in<std::vector<long>>(a), ::cei::rt::in<std::vector<long>>(b)));
}

void member_and_element() {
  Vec a = {1, 2};
  Stats s;
  s.total = ops::sum(a);
  // CHECK: ::cei::rt::assign(s.total, ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a)), &(s));
  s.hist = ops::iota(3, 0);
  // CHECK: ::cei::rt::assign(s.hist, ::cei::rt::call<std::vector<long>>(__cei_ce_OpsCEI_iota, ::cei::rt::in<long>(3), ::cei::rt::in<long>(0)), &(s));
  std::vector<long> parts(2);
  parts[1] = ops::sum(a);
  // CHECK: ::cei::rt::assign(parts[1], ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a)), &(parts));
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
  // CHECK: d = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a)).get();
  long x = 0, y = 0;
  x = y = ops::sum(a);
  // CHECK: x = y = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a)).get();
  long* p = &x;
  *p = ops::sum(a);
  // CHECK: *p = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a)).get();
  // CHECK-NOT: ::cei::rt::assign(
}
