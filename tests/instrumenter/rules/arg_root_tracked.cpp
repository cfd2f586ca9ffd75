// RULE: arg_root_tracked
// Arguments reached through element accessors, accessor functions and lambdas, and reference
// locals are tracked under the variable they belong to (docs/instrumenter.md).
#include "ops.hpp"
#include "rows.hpp"

struct Grid {
  std::vector<Row> rows;
  Row& row(int i) { return rows[i]; }
  const Row& first() const { return rows.front(); }
};

Row& second(Grid& g) { return g.rows[1]; }

void accessors() {
  std::vector<Row> grid(4, Row(8, 1.0f));
  vec::bump(grid.at(1), 2.0f);
  // CHECK: inout<std::vector<float>>(grid.at(1), &(grid))
  vec::bump(grid.front(), 1.0f);
  // CHECK: inout<std::vector<float>>(grid.front(), &(grid))
  vec::bump(grid[3], 1.0f);
  // CHECK: inout<std::vector<float>>(grid[3], &(grid))
  Grid g{grid};
  vec::bump(g.row(0), 1.0f);
  // CHECK: inout<std::vector<float>>(g.row(0), &(g))
  vec::bump(second(g), 1.0f);
  // CHECK: inout<std::vector<float>>(second(g), &(g))
  vec::axpy(g.first(), g.first(), grid.back());
  // CHECK: in<std::vector<float>>(g.first(), &(g))
  // CHECK: inout<std::vector<float>>(grid.back(), &(grid))
}

void lambdas() {
  const int nb = 2;
  std::vector<Row> A(nb * nb, Row(2, 1.0f));
  auto tile = [&](int i, int j) -> Row& { return A[i * nb + j]; };
  // CHECK: return ::cei::rt::sync(A)[i * nb + j];
  vec::axpy(tile(0, 0), tile(1, 0), tile(1, 1));
  // CHECK: in<std::vector<float>>(A[(0) * nb + (0)], &(A))
  // CHECK: inout<std::vector<float>>(A[(1) * nb + (1)], &(A))
  int k = 1;
  auto shifted = [&A, k](int i) -> Row& { return A[i + k]; };
  // k is the lambda's copy: the call runs, and its body waits for A's tasks
  vec::bump(shifted(0), 1.0f);
  // CHECK: inout<std::vector<float>>(shifted(0), &(A))
}

void references() {
  std::vector<Row> A(3, Row(2, 1.0f));
  for (int i = 0; i < 3; ++i) {
    auto& a = A[i];
    // CHECK: auto& a = A[i];
    vec::bump(a, 1.0f);
    // CHECK: inout<std::vector<float>>(a, &(A))
    a[0] = 2.0f;
    // CHECK: ::cei::rt::sync(a)[0] = 2.0f;
  }
  for (auto& row : A) vec::bump(row, 2.0f);
  // CHECK: for (auto& row : A)
  float first = A[0][0];
  // CHECK: ::cei::rt::sync_read(A)[0][0]
  (void)first;
}

void overlap() {
  Vec v = {1, 2, 3};
  ops::scale(v, 2);
  // v and its element v[0] are both task data: every call starting from v waits for all of v
  // CHECK: inout<std::vector<long>>(::cei::rt::sync(v))
  v[0] = ops::sum(v);
  // CHECK: ::cei::rt::assign(::cei::rt::sync(v)[0]
  Vec u = {1, 2};
  ops::scale(u, 2);
  ops::scale(u, 3);
  // CHECK: inout<std::vector<long>>(u)
  // CHECK-NOT: ::cei::rt::sync(u)
}

void declared_result() {
  Vec a = {1, 2};
  Vec x = ops::add(a, a);
  const Vec& view = x;
  long first = view[0];
  // CHECK: const Vec& view = x;
  // CHECK: long first = ::cei::rt::sync_read(view)[0];
  (void)first;
}

void element_of_pending_result() {
  Vec a = {1, 2};
  Vec x = ops::add(a, a);
  // x's whole value comes from a task: its element is taken once that task has run
  x[1] = ops::sum(a);
  // CHECK: ::cei::rt::assign(::cei::rt::sync(x)[1]
  Vec y;
  y = ops::iota(3, 0);
  y[0] = ops::sum(a);
  // CHECK: ::cei::rt::assign(::cei::rt::sync(y),
  // CHECK: ::cei::rt::assign(::cei::rt::sync(y)[0]
}

void copy_capture() {
  Vec v = {1, 2};
  ops::scale(v, 2);
  auto f = [v] { return v[0]; };
  // the lambda's copy of v is taken after v's task, and the capture itself is left as written
  // CHECK: auto f = ((void)::cei::rt::sync_read(v), [v] { return v[0]; });
  (void)f;
}
