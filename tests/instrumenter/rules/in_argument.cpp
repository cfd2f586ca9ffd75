// RULE: in_argument
// An `in` argument that is a variable of exactly the parameter's type goes by address and is not
// waited for at the call (a class-type variable no task writes is read in place; an arithmetic
// one is copied at the call). Members and elements of class type go by address too, under their
// root; of arithmetic type they are copied after a sync_read of their variable. Other `in`
// expressions (`r + 1`, a `float` variable for a `double` parameter, temporaries) are evaluated
// on the host at the call, which waits for the variables they read.
#include "ops.hpp"
#include "rows.hpp"

struct Stats {
  long total = 0;
  Vec hist;
};

// -----
void by_address(const Row& row) {
  Vec v = {1, 2};
  ops::sum(v);
  // CHECK: ::cei::rt::in<std::vector<long>>(v, "v")
  long n = 3;
  ops::iota(n, 0);
  // CHECK: ::cei::rt::in<long>(n, "n")
  Stats s;
  s.total = ops::busy(1, 1);
  ops::sum(s.hist);
  // CHECK: ::cei::rt::in<std::vector<long>>(s.hist, "s.hist", &(s))
  ops::busy(s.total, 1);
  // CHECK: ::cei::rt::in<long>(::cei::rt::sync_read(s).total, "s.total")
  std::vector<Row> rows(2, Row(2, 1.0f));
  vec::total(rows[1]);
  // CHECK: ::cei::rt::in<std::vector<float>>(rows[1], "rows[1]", &(rows))
  vec::total(row);
  // CHECK: ::cei::rt::in<std::vector<float>>(row, "row")
  // CHECK-NOT: sync_read(v)
  // CHECK-NOT: sync_read(n)
}

// -----
// Near forms: evaluated on the host at the call, after the waits for what they read.
void evaluated() {
  long r = ops::busy(1, 1);
  ops::busy(r + 1, 1);
  // CHECK: ::cei::rt::in<long>(::cei::rt::sync_read(r) + 1)
  int small = 2;
  ops::busy(small, 1);
  // CHECK: ::cei::rt::in<long>(small)
  Vec v = {1, 2};
  ops::sum(Vec(v));
  // CHECK: ::cei::rt::in<std::vector<long>>(Vec(v))
}
