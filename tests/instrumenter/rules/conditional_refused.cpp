// RULE: conditional_refused
// `c ? a : b` as an argument ceic must root: refused; call the CE in each branch of an `if`.
// (As an `in`, the task gets a copy instead: in_copied.)
#include "ops.hpp"
#include "rows.hpp"

// -----
void refused(bool c) {
  std::vector<Row> v(2, Row(2, 1.0f));
  vec::bump(c ? v[0] : v[1], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a conditional expression: ceic cannot tell which variable the task writes, so later host uses would not wait for it; call the CE in each branch of an 'if' [ceic-untracked-argument]}}
  Row a(2), b(2);
  vec::axpy(a, b, c ? a : b);  // expected-error@19 {{the inout argument of CE 'axpy' is a conditional expression}}
}

// -----
// What to write instead.
void instead(bool c) {
  std::vector<Row> v(2, Row(2, 1.0f));
  if (c)
    vec::bump(v[0], 1.0f);
  else
    vec::bump(v[1], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[0], &(v))
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[1], &(v))
}
