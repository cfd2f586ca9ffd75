// RULE: in_copied
// An `in` argument of a refused form that is not behind a pointer or iterator (a function's
// reference, a conditional, part of a temporary) is copied at the call: the task reads the value
// the program read there. `std::move(v)` as an `in` is read in place under v, not moved from.
#include <utility>

#include "ops.hpp"
#include "rows.hpp"

const Row& pick(const std::vector<Row>& rows, int i) { return i > 0 ? rows[i] : rows[0]; }

struct Bag {
  std::vector<Row> rows;
};
Bag make_bag();

// -----
void copies(bool c) {
  std::vector<Row> rows(2, Row(2, 1.0f));
  vec::axpy(pick(rows, 1), rows[0], rows[1]);
  // CHECK: ::cei::rt::in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(pick(::cei::rt::sync_read(rows), 1))))
  vec::total(c ? rows[0] : rows[1]);
  // the host copies rows[0] or rows[1] after the tasks that write them
  // CHECK: ::cei::rt::in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(c ? ::cei::rt::sync_read(rows)[0] : ::cei::rt::sync_read(rows)[1])))
  vec::axpy(make_bag().rows[0], rows[0], rows[1]);
  // CHECK: ::cei::rt::in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(make_bag().rows[0])))
}

void moved() {
  Vec v = {1, 2};
  long s = 0;
  s += ops::sum(std::move(v));
  // the CE takes a const reference: the task reads v in place, and nothing moves from it
  // CHECK: ::cei::rt::in<std::vector<long>>(static_cast<const std::vector<long>&>(std::move(v)), "std::move(v)", &(v))
  s += ops::sum(v);
}

// -----
// Near forms: behind a pointer or an iterator, an `in` is refused (pointer_refused,
// iterator_refused), and so is any of these forms as an `out`/`inout` (conditional_refused,
// opaque_call_refused).
void not_this_rule(bool c) {
  std::vector<Row> rows(2, Row(2, 1.0f));
  Row* p = &rows[0];
  vec::total(*p);  // expected-error@14 {{the in argument of CE 'total' is a dereferenced pointer}} expected-note@14 {{fix-it: replace '*p' with 'rows[0]'}}
  vec::total(*rows.begin());  // expected-error@14 {{the in argument of CE 'total' is a dereferenced iterator or smart pointer}}
  vec::bump(c ? rows[0] : rows[1], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a conditional expression}} expected-note@13 {{fix-it: write the call as 'if (c) vec::bump(rows[0], 1.0f); else vec::bump(rows[1], 1.0f);'}}
}
