// RULE: this_refused
// An instance CE called on `this` (implicitly or explicitly) is refused: call it on an object from
// outside the class.
#include "ops.hpp"

// -----
struct Twice : Counter {
  void run() { bump(2); }  // expected-error@16 {{ceic: call of instance CE 'bump' on 'this' is not supported; call it on an object from outside the class}}
  void run_explicit() { this->bump(2); }  // expected-error@25 {{call of instance CE 'bump' on 'this' is not supported}}
};

// -----
// Near form: the same call on an object, from outside the class.
void outside() {
  Counter c;
  c.bump(2);
  // CHECK: ::cei::rt::call<void>(__cei_ce_CounterCEI_bump, ::cei::rt::inout<Counter>(c, "c"), ::cei::rt::in<long>(2));
}
