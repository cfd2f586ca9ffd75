// RULE: conditional_refused
// `c ? a : b` as an argument ceic must root: refused; call the CE in each branch of an `if`. A note
// gives that fix-it where the call is a statement and both branches are lvalues ceic roots.
// (As an `in`, the task gets a copy instead: in_copied.)
#include "ops.hpp"
#include "rows.hpp"

// -----
void refused(bool c) {
  std::vector<Row> v(2, Row(2, 1.0f));
  vec::bump(c ? v[0] : v[1], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a conditional expression: ceic cannot tell which variable the task writes, so later host uses would not wait for it; call the CE in each branch of an 'if' [ceic-untracked-argument]}} expected-note@13 {{fix-it: write the call as 'if (c) vec::bump(v[0], 1.0f); else vec::bump(v[1], 1.0f);'}}
  Row a(2), b(2);
  vec::axpy(a, b, c ? a : b);  // expected-error@19 {{the inout argument of CE 'axpy' is a conditional expression}} expected-note@19 {{fix-it: write the call as 'if (c) vec::axpy(a, b, a); else vec::axpy(a, b, b);'}}
  // No fix-it: the call is not a statement of its own, or a branch is no variable ceic roots.
  if ((vec::bump(c ? a : b, 1.0f), c)) {  // expected-error@18 {{the inout argument of CE 'bump' is a conditional expression}}
  }
  Row* p = &a;
  vec::bump(c ? *p : b, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a conditional expression}}
}

// -----
// What to write instead.
void instead(bool c) {
  std::vector<Row> v(2, Row(2, 1.0f));
  if (c)
    vec::bump(v[0], 1.0f);
  else
    vec::bump(v[1], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[0], "v[0]", &(v))
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[1], "v[1]", &(v))
}
