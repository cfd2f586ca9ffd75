// RULE: user_accessor
// `g.row(i)`, `second(g)`, `obj[i]` of a user class: a member function, function or operator whose
// body is `return <element or member of a parameter or of this>;` is seen through: tracked under
// g (the call runs at the argument); `row(i)` inside the class under the member `rows`.
#include "ops.hpp"
#include "rows.hpp"

struct Grid {
  std::vector<Row> rows;
  Row& row(int i) { return rows[i]; }
  const Row& first() const { return rows.front(); }
  Row& operator[](int i) { return rows.at(i); }
  Row& last() { return row(static_cast<int>(rows.size()) - 1); }
  void bump_first() { vec::bump(row(0), 1.0f); }
};

Row& second(Grid& g) { return g.rows[1]; }

// -----
// Inside the class, under the member (this->rows, in the prelude above), kept up to date when the function returns.
// CHECK: void bump_first() { ::cei::rt::SyncAtExit __cei_exit_rows(this->rows); ::cei::rt::call<void>(__cei_ce_RowsCEI_bump, ::cei::rt::inout<std::vector<float>>(row(0), "row(0)", &(this->rows))
void accessors() {
  Grid g{std::vector<Row>(3, Row(2, 1.0f))};
  vec::bump(g.row(0), 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(g.row(0), "g.row(0)", &(g))
  vec::bump(second(g), 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(second(g), "second(g)", &(g))
  vec::bump(g[2], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(g[2], "g[2]", &(g))
  vec::axpy(g.first(), g.first(), g.last());
  // CHECK: ::cei::rt::in<std::vector<float>>(g.first(), "g.first()", &(g))
  // CHECK: ::cei::rt::inout<std::vector<float>>(g.last(), "g.last()", &(g))
}

// -----
// Near forms: an accessor returning a copy is no accessor; its result, a temporary, is an `in`
// copied at the call and tracked under nothing.
struct Table {
  std::vector<Row> rows;
  Row copy(int i) const { return rows[i]; }
};

void not_this_rule() {
  Table t{std::vector<Row>(2, Row(2, 1.0f))};
  float x = vec::total(t.copy(1));
  // CHECK: ::cei::rt::in<std::vector<float>>(t.copy(1))
  // CHECK-NOT: &(t)
  (void)x;
}
