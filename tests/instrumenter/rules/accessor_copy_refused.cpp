// RULE: accessor_copy_refused
// A lambda or accessor returning a copy it captured, a local, or a by-value parameter: what it
// returns belongs to no variable of the caller's; refused (capture by reference; return an element
// of a parameter or member).
#include "ops.hpp"
#include "rows.hpp"

// (A reference to a by-value parameter dangles: clang warns, and the case is about ceic's answer.)
#pragma clang diagnostic ignored "-Wreturn-stack-address"
Row& of_copy(Row r) { return r; }

// -----
void refused() {
  std::vector<Row> v(3, Row(2, 1.0f));
  auto copy_tile = [=](int i) mutable -> Row& { return v[i]; };
  vec::bump(copy_tile(0), 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of a lambda, which returns a copy of 'v' the lambda captured: ceic cannot tell which variable the task writes, so later host uses would not wait for it; capture it by reference [ceic-untracked-argument]}}
  vec::bump(of_copy(v[0]), 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of 'of_copy', which returns a by-value parameter of 'of_copy'}}
  static Row shared(2);
  auto local = []() -> Row& { return shared; };
  vec::bump(local(), 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of a lambda, which returns a local variable of 'lambda'}}
}

// -----
// What to write instead: capture by reference; return an element of a parameter.
Row& of_ref(Row& r) { return r; }

void instead() {
  std::vector<Row> v(3, Row(2, 1.0f));
  auto tile = [&](int i) -> Row& { return v[i]; };
  vec::bump(tile(0), 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[(0)], "tile(0)", &(v))
  vec::bump(of_ref(v[1]), 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(of_ref(v[1]), "of_ref(v[1])", &(v))
}
