// RULE: temporary_instance_refused
// An instance CE called on a temporary is refused: store the object in a variable.
#include "ops.hpp"

Counter make_counter();

// -----
void refused() {
  Counter{}.bump(1);  // expected-error@3 {{ceic: instance CE 'bump' called on a temporary; store the object in a variable}}
  make_counter().bump(2);  // expected-error@3 {{ceic: instance CE 'bump' called on a temporary; store the object in a variable}}
}

// -----
// Near form: the object in a variable.
void instead() {
  Counter c = make_counter();
  c.bump(1);
  // CHECK: ::cei::rt::inout<Counter>(c, "c")
}
