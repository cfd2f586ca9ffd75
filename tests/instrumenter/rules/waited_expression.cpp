// RULE: waited_expression
// A CE call in any other place (`v.push_back(ce(x))`, `return ce(x);`, `print(ce(x))`,
// `if (ce(x) > 0)`, `x += ce(a)`) is submitted, then waited for right there: `.get()`.
#include <cstdio>

#include "ops.hpp"

long consume(long x);

// -----
long waited() {
  Vec a = {1, 2};
  std::vector<long> sums;
  sums.push_back(ops::sum(a));
  // CHECK: sums.push_back(::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get());
  std::printf("%ld\n", ops::sum(a));
  // CHECK: std::printf("%ld\n", ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get());
  if (ops::sum(a) > 0) consume(1);
  // CHECK: if (::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get() > 0) consume(1);
  long x = 0;
  x += ops::sum(a);
  // CHECK: x += ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
  return ops::sum(a);
  // CHECK: return ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(a, "a")).get();
}

// -----
// Near form: the same value through a variable is not waited for at the call; the host's read of
// the variable waits (sync_read).
long through_a_variable() {
  Vec a = {1, 2};
  long y = ops::sum(a);
  consume(y);
  // CHECK: consume(::cei::rt::sync_read(y));
  // CHECK-NOT: .get()
  return 0;
}
