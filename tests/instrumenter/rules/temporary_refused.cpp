// RULE: temporary_refused
// `make().rows[0]`, part of a temporary, as an argument ceic must root: refused; declare a
// variable. (As an `in`, the task gets a copy instead: in_copied.)
#include "ops.hpp"
#include "rows.hpp"

struct Bag {
  std::vector<Row> rows;
};
Bag make_bag();

// -----
void refused() {
  vec::bump(make_bag().rows[0], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is part of a temporary: ceic cannot tell which variable the task writes, so later host uses would not wait for it; declare a variable instead [ceic-untracked-argument]}}
  vec::bump(make_bag().rows.front(), 1.0f);  // expected-error@13 {{is part of a temporary}}
}

// -----
// What to write instead: a variable.
void instead() {
  Bag bag = make_bag();
  vec::bump(bag.rows[0], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(bag.rows[0], "bag.rows[0]", &(bag))
}
