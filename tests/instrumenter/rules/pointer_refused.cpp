// RULE: pointer_refused
// `*p`, `p->f`, `p[i]` of a pointer, `p->method()` (an instance CE) as an argument ceic must root:
// refused at the argument, with what to write instead; where p was set to `&v[1]`, a note gives
// the fix-it `*p` -> `v[1]`.
#include "ops.hpp"
#include "rows.hpp"

struct Holder {
  Row row;
};

// -----
void refused(Holder* h, Counter* counter, Row* q) {
  std::vector<Row> v(3, Row(2, 1.0f));
  Row* p = &v[1];
  vec::bump(*p, 3.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a dereferenced pointer: ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the variable, member or element itself (e.g. 'v[i]', 's.f'), or a reference bound to one [ceic-untracked-argument]}} expected-note@13 {{fix-it: replace '*p' with 'v[1]' ('p' was set to '&v[1]' at line 15; only if it still points there)}}
  vec::total(*p);  // expected-error@14 {{the in argument of CE 'total' is a dereferenced pointer: ceic cannot tell which variable the task reads}} expected-note@14 {{fix-it: replace '*p' with 'v[1]'}}
  vec::bump(*q, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a dereferenced pointer}}
  vec::bump(h->row, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a member reached through a pointer: ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the variable, member or element itself}}
  vec::bump(q[2], 1.0f);  // expected-error@13 {{is an element reached through a pointer}}
  counter->bump(1);  // expected-error@3 {{the inout argument of CE 'bump' is an object reached through a pointer: ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the variable, member or element itself}}
}

// -----
// What to write instead: the variable, member or element itself, or a reference bound to one.
void instead(Holder& h, Counter& counter) {
  std::vector<Row> v(3, Row(2, 1.0f));
  vec::bump(v[1], 3.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[1], "v[1]", &(v))
  Row& r = v[1];
  vec::total(r);
  // CHECK: ::cei::rt::in<std::vector<float>>(r, "r", &(v))
  vec::bump(h.row, 1.0f);
  // Two reference parameters of different types may alias (alias_params): each waits for the other.
  // CHECK: ::cei::rt::inout<std::vector<float>>(((void)::cei::rt::sync(counter), h).row, "h.row", &(h))
  counter.bump(1);
  // CHECK: ::cei::rt::call<void>(__cei_ce_CounterCEI_bump, ::cei::rt::inout<Counter>(((void)::cei::rt::sync(h), counter), "counter"), ::cei::rt::in<long>(1));
}
