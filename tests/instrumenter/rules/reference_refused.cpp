// RULE: reference_refused
// `auto& r = <any refused form>;` then `ce(r)`: refused at the use, naming r and its line.
#include "ops.hpp"
#include "rows.hpp"

Row make_row();

// -----
void refused(bool c) {
  std::vector<Row> v(3, Row(2, 1.0f));
  Row* p = &v[1];
  auto& r = *p;
  vec::bump(r, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is 'r', a reference bound to a dereferenced pointer (line 12): ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the variable, member or element itself}}
  auto& either = c ? v[0] : v[1];
  vec::bump(either, 1.0f);  // expected-error@13 {{is 'either', a reference bound to a conditional expression (line 14)}}
  Row&& t = make_row();
  vec::bump(t, 1.0f);  // expected-error@13 {{is 't', a reference bound to a temporary (line 16)}}
}

// -----
// What to write instead: a reference bound to a variable, member or element.
void instead() {
  std::vector<Row> v(3, Row(2, 1.0f));
  auto& r = v[1];
  vec::bump(r, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(r, "r", &(v))
}
