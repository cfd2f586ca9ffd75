// RULE: aliased_arguments_refused
// One object passed as a by-reference `in` and as an `out`/`inout` of one call (or as two
// outputs) is refused: the function sees one object, the task reads the value from before the
// call apart from the one it writes (issue 39, item 6).
#include "ops.hpp"
#include "rows.hpp"

// -----
void same(Row& r, std::vector<Row>& rows, Counter& c) {
  vec::axpy(r, r, r);  // expected-error@13 {{ceic: 'r' is passed twice to CE 'axpy', which writes 'r'}}
  vec::axpy(rows[1], rows[2], rows[ 1 ]);  // expected-error@13 {{ceic: 'rows[1]' is passed twice to CE 'axpy', which writes 'rows[ 1 ]': the function sees one object, the task would read the value from before the call apart from the one it writes; pass a copy made before the call ('auto copy = rows[1];', then 'copy' in its place) [ceic-aliased-arguments]}}
}

// -----
// Near forms: a by-value parameter is a copy in the program too (accumulate's x); distinct
// elements, and a copy made before the call, are fine.
void distinct() {
  double acc = 1;
  ops::accumulate(acc, acc);
  // CHECK: ::cei::rt::inout<double>(acc, "acc")
  std::vector<Row> rows(3, Row(2, 1.0f));
  vec::axpy(rows[0], rows[1], rows[2]);
  // CHECK: ::cei::rt::inout<std::vector<float>>(rows[2], "rows[2]", &(rows))
  Row r(2, 1.0f);
  Row copy = r;
  vec::axpy(copy, copy, r);
  // CHECK: ::cei::rt::inout<std::vector<float>>(r, "r")
}
