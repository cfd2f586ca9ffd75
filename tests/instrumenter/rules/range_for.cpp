// RULE: range_for
// `for (auto& a : A) ce(a);`: the loop variable is tracked as A's element; the range waits for
// nothing, and uses of `a` wait for that element's tasks.
#include "ops.hpp"
#include "rows.hpp"

// -----
void range_for() {
  std::vector<Row> A(3, Row(2, 1.0f));
  for (auto& row : A) vec::bump(row, 2.0f);
  // CHECK: for (auto& row : A) ::cei::rt::call<void>(__cei_ce_RowsCEI_bump, ::cei::rt::inout<std::vector<float>>(row, "row", &(A)), ::cei::rt::in<float>(2.0f));
  for (auto& row : A) {
    vec::bump(row, 1.0f);
    row[0] = 0.0f;
  }
  // CHECK: for (auto& row : A) {
  // CHECK: ::cei::rt::inout<std::vector<float>>(row, "row", &(A))
  // CHECK: ::cei::rt::sync(row)[0] = 0.0f;
}

// -----
// Near form: a loop variable that is a copy is a local of the loop's body: the task writes the
// copy, which gets its Scope in the body; A is not task data.
void not_this_rule() {
  std::vector<Row> A(3, Row(2, 1.0f));
  for (auto row : A) {
    vec::bump(row, 1.0f);
  }
  // CHECK: for (auto row : A) { ::cei::rt::Scope __cei_scope_row(row);
  // CHECK: ::cei::rt::inout<std::vector<float>>(row, "row")
  // CHECK-NOT: &(A)
}
