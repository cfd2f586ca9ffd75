// RULE: arg_root_refused
// Arguments whose storage the analysis cannot name are build errors at the argument.
#include <functional>
#include <memory>
#include <utility>

#include "ops.hpp"
#include "rows.hpp"

struct Holder {
  Row row;
};

Row& opaque_pick(std::vector<Row>& rows, int i) {
  Row& r = rows[i];
  return r;
}

void refused(bool c, Holder* h, Counter* counter) {
  std::vector<Row> v(3, Row(2, 1.0f));
  Row* p = &v[1];
  vec::bump(*p, 3.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a dereferenced pointer}} expected-note@13 {{fix-it: replace '*p' with 'v[1]'}}
  vec::bump(h->row, 1.0f);  // expected-error@13 {{is a member reached through a pointer}}
  vec::bump(c ? v[0] : v[1], 1.0f);  // expected-error@13 {{is a conditional expression: ceic cannot tell which variable the task writes}}
  vec::bump(opaque_pick(v, 0), 1.0f);  // expected-error@13 {{is a call of 'opaque_pick' that returns a reference and whose body ceic cannot see through}}
  auto& r = *p;
  vec::bump(r, 1.0f);  // expected-error@13 {{is 'r', a reference bound to a dereferenced pointer (line 26)}}
  vec::total(*p);  // expected-error@14 {{the in argument of CE 'total' is a dereferenced pointer}} expected-note@14 {{fix-it: replace '*p' with 'v[1]'}}
  counter->bump(1);  // expected-error@3 {{is an object reached through a pointer}}
  auto it = v.begin();
  vec::bump(*it, 1.0f);  // expected-error@13 {{is a dereferenced iterator or smart pointer}}
  auto copy_tile = [=](int i) mutable -> Row& { return v[i]; };
  vec::bump(copy_tile(0), 1.0f);  // expected-error@13 {{is a call of a lambda, which returns a copy of 'v' the lambda captured: ceic cannot tell which variable the task writes, so later host uses would not wait for it; capture it by reference}}
  std::pair<Row, Row> pr;
  auto& [first, second] = pr;
  vec::bump(first, 1.0f);  // expected-error@13 {{is a structured binding: ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the member of the object itself}}
}

struct Base {
  Row own;
  virtual Row& row() { return own; }
  virtual ~Base() = default;
};

struct Bag {
  std::vector<Row> rows;
};
Bag make_bag();

void not_owned(Base& b, std::function<Row&(int)> f, std::unique_ptr<Row[]>& owned) {
  vec::bump(b.row(), 1.0f);  // expected-error@13 {{is a call of virtual 'Base::row'}}
  vec::bump(f(0), 1.0f);  // expected-error@13 {{that returns a reference and whose body ceic cannot see through}}
  vec::bump(owned[0], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of 'std::unique_ptr<}}
  vec::bump(make_bag().rows[0], 1.0f);  // expected-error@13 {{is part of a temporary}}
}
