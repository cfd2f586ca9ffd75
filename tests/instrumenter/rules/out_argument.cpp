// RULE: out_argument
// `out` and `inout` arguments go by the CEI's directions, in place under their root: the task
// writes the variable, and later host uses and tasks wait for it. They must be lvalues whose
// variable the analysis can name.
#include "ops.hpp"

struct Stats {
  Vec hist;
};

// -----
void directions() {
  Vec v;
  ops::fill(v, 3, 1);
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_fill, ::cei::rt::out<std::vector<long>>(v, "v"), ::cei::rt::in<long>(3), ::cei::rt::in<long>(1));
  ops::scale(v, 2);
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(v, "v"), ::cei::rt::in<long>(2));
  Stats s;
  ops::fill(s.hist, 2, 0);
  // CHECK: ::cei::rt::out<std::vector<long>>(s.hist, "s.hist", &(s))
  long first = v[0];
  // CHECK: long first = ::cei::rt::sync_read(v)[0];
  (void)first;
}

// -----
// Near form: an `out` whose variable ceic cannot name is refused.
void not_this_rule(Stats* p) {
  ops::fill(p->hist, 2, 0);  // expected-error@13 {{the out argument of CE 'fill' is a member reached through a pointer: ceic cannot tell which variable the task writes}}
}
