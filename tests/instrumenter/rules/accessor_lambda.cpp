// RULE: accessor_lambda
// `tile(i, k)`, a local lambda `[&](int i, int j) -> T& { return A[i * nb + j]; }`: tracked under
// A, and the task's argument is the lambda's body with the call's arguments in place,
// `A[(i) * nb + (k)]`, so it does not wait for A's other tiles. Captured by copy, or called with
// arguments that have side effects, the lambda is called at the argument instead (still tracked
// under A), and its body's use of A waits for A's tasks.
#include "ops.hpp"
#include "rows.hpp"

// -----
void inlined() {
  const int nb = 2;
  std::vector<Row> A(nb * nb, Row(2, 1.0f));
  auto tile = [&](int i, int j) -> Row& { return A[i * nb + j]; };
  // CHECK: return ::cei::rt::sync(A)[i * nb + j];
  vec::axpy(tile(0, 0), tile(1, 0), tile(1, 1));
  // CHECK: ::cei::rt::in<std::vector<float>>(A[(0) * nb + (0)], "tile(0, 0)", &(A))
  // CHECK: ::cei::rt::in<std::vector<float>>(A[(1) * nb + (0)], "tile(1, 0)", &(A))
  // CHECK: ::cei::rt::inout<std::vector<float>>(A[(1) * nb + (1)], "tile(1, 1)", &(A))
  // CHECK-NOT: >>(tile(0, 0)
}

// -----
// Near forms: a copy captured (k), or an argument with a side effect (i++): the call runs.
void called() {
  std::vector<Row> A(4, Row(2, 1.0f));
  int k = 1;
  auto shifted = [&A, k](int i) -> Row& { return A[i + k]; };
  vec::bump(shifted(0), 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(shifted(0), "shifted(0)", &(A))
  auto tile = [&](int i) -> Row& { return A[i]; };
  int i = 0;
  vec::bump(tile(i++), 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(tile(i++), "tile(i++)", &(A))
}
