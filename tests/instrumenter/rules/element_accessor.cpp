// RULE: element_accessor
// `v.at(i)`, `v.front()`, `v.back()` of the containers that own their elements: tracked under v.
#include <deque>

#include "ops.hpp"
#include "rows.hpp"

// -----
void accessors() {
  std::vector<Row> grid(4, Row(8, 1.0f));
  vec::bump(grid.at(1), 2.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(grid.at(1), "grid.at(1)", &(grid))
  vec::bump(grid.front(), 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(grid.front(), "grid.front()", &(grid))
  std::deque<Row> dq(2);
  vec::axpy(grid.back(), dq.front(), dq.back());
  // CHECK: ::cei::rt::in<std::vector<float>>(grid.back(), "grid.back()", &(grid))
  // CHECK: ::cei::rt::in<std::vector<float>>(dq.front(), "dq.front()", &(dq))
  // CHECK: ::cei::rt::inout<std::vector<float>>(dq.back(), "dq.back()", &(dq))
}

// -----
// Near form: the element behind data(), a pointer, is refused.
void not_this_rule() {
  std::vector<Row> grid(4, Row(8, 1.0f));
  vec::bump(grid.data()[1], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is an element reached through a pointer}}
}
