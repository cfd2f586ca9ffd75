// RULE: instance_ce
// An instance CE's callee is an `inout` argument: `c.bump(1)` becomes a task that writes c.
#include "ops.hpp"

struct Pair {
  Counter first;
};

// -----
void instance() {
  Counter c;
  c.bump(1);
  // CHECK: ::cei::rt::call<void>(__cei_ce_CounterCEI_bump, ::cei::rt::inout<Counter>(c, "c"), ::cei::rt::in<long>(1));
  Pair p;
  p.first.bump(2);
  // CHECK: ::cei::rt::inout<Counter>(p.first, "p.first", &(p))
  std::vector<Counter> cs(2);
  cs[1].bump(3);
  // CHECK: ::cei::rt::inout<Counter>(cs[1], "cs[1]", &(cs))
  long v = c.value;
  // CHECK: long v = ::cei::rt::sync_read(c).value;
  (void)v;
}

// -----
// Near forms, refused: the callee through a pointer (pointer_refused), a temporary
// (temporary_instance_refused), `this` (this_refused).
void not_this_rule(Counter* pc) {
  pc->bump(1);  // expected-error@3 {{the inout argument of CE 'bump' is an object reached through a pointer}}
  Counter{}.bump(1);  // expected-error@3 {{ceic: instance CE 'bump' called on a temporary; store the object in a variable}}
}
