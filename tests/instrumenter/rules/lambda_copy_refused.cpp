// RULE: lambda_copy_refused
// A CE argument that is a variable a lambda captured by copy is refused: capture it by
// reference, or call the CE outside the lambda.
#include "ops.hpp"

// -----
long refused() {
  Vec v = {1, 2};
  auto f = [v] { return ops::sum(v); };  // expected-error@34 {{ceic: CE 'sum' called on a variable the lambda captured by copy; capture it by reference or call the CE outside the lambda}}
  auto g = [=]() mutable { ops::scale(v, 2); };  // expected-error@39 {{ceic: CE 'scale' called on a variable the lambda captured by copy}}
  g();
  return f();
}

// -----
// Near forms: captured by reference; an arithmetic copy passed as a value; a CE outside the lambda.
long instead() {
  Vec v = {1, 2};
  auto f = [&v] { return ops::sum(v); };
  // CHECK: auto f = [&v] { return ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v, "v")).get(); };
  long n = 3;
  auto g = [n] { return ops::busy(n, 1); };
  // CHECK: auto g = [n] { return ::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(n, "n"), ::cei::rt::in<long>(1)).get(); };
  return f() + g();
}
