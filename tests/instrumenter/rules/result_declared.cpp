// RULE: result_declared
// `T x = ce(a);` / `auto x = ce(a);` (a local of exactly the result type, alone in its declaration,
// in a block): declared empty, given its Scope, and assigned the task's result; no wait.
#include "ops.hpp"

// -----
void declared() {
  Vec a = {1, 2};
  Vec x = ops::add(a, a);
  // CHECK: std::vector<long> x{}; ::cei::rt::Scope __cei_scope_x(x); ::cei::rt::call_into<std::vector<long>>(::cei::rt::out<std::vector<long>>(x, "x"), __cei_ce_OpsCEI_add, ::cei::rt::in<std::vector<long>>(a, "a"), ::cei::rt::in<std::vector<long>>(a, "a"));
  auto n = ops::sum(a);
  // CHECK: long n{}; ::cei::rt::Scope __cei_scope_n(n); ::cei::rt::call_into<long>(::cei::rt::out<long>(n, "n"), __cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a"));
  // CHECK-NOT: .get()
}

// -----
// Near forms, waited for where they are: a const local, a local of another type, one of two
// declarators, a static local, a variable declared in a loop header.
void not_this_rule() {
  Vec a = {1, 2};
  const long c = ops::sum(a);
  // CHECK: const long c = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
  double d = ops::sum(a);
  // CHECK: double d = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
  long p = ops::sum(a), q = 0;
  // CHECK: long p = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get(), q = 0;
  static long s = ops::sum(a);
  // CHECK: static long s = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
  for (long i = ops::sum(a); i < 3; ++i) {
  }
  // CHECK: for (long i = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get(); i < 3; ++i)
  // CHECK-NOT: ::cei::rt::call_into<
  (void)c, (void)d, (void)p, (void)q, (void)s;
}
