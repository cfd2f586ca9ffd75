// RULE: task_data_overlap
// Where tasks use data of one root that contain one another (`ops::scale(v)` and
// `v[0] = ce(...)`, or A[i] and A[i][j]), the runtime's keys do not see the overlap: every task
// argument and host use that starts from that root waits for all of its tasks
// (`inout(::cei::rt::sync(v))`).
#include "ops.hpp"
#include "rows.hpp"

// -----
void overlap() {
  Vec v = {1, 2, 3};
  ops::scale(v, 2);
  // CHECK: ::cei::rt::inout<std::vector<long>>(::cei::rt::sync(v), "v")
  v[0] = ops::sum(v);
  // CHECK: ::cei::rt::call_into<long>(::cei::rt::out<long>(::cei::rt::sync(v)[0], "v[0]", &(v)), __cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(::cei::rt::sync_read(v), "v"));
}

// -----
// Near form: tasks that use one datum of the root (all of u here, twice) or disjoint elements do
// not wait for each other.
void not_this_rule() {
  Vec u = {1, 2};
  ops::scale(u, 2);
  ops::scale(u, 3);
  // CHECK: ::cei::rt::inout<std::vector<long>>(u, "u")
  // CHECK: ::cei::rt::inout<std::vector<long>>(u, "u")
  std::vector<Row> A(2, Row(2, 1.0f));
  vec::bump(A[0], 1.0f);
  vec::bump(A[1], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(A[0], "A[0]", &(A))
  // CHECK: ::cei::rt::inout<std::vector<float>>(A[1], "A[1]", &(A))
  // CHECK-NOT: ::cei::rt::sync(u)
  // CHECK-NOT: ::cei::rt::sync(A)
}
