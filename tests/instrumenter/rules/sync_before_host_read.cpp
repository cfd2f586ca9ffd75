// RULE: sync_before_host_read
// A host use of a tracked variable that only reads it (a value read, a const member call, binding
// to a const reference parameter) goes through ::cei::rt::sync_read(x): it waits for the pending
// writers of x.
#include <cstdio>

#include "ops.hpp"
#include "rows.hpp"

long consume(const Vec& v);
long by_value(Vec v);

// -----
void reads(bool c) {
  Vec a = {1, 2};
  ops::scale(a, 2);
  long first = a[0];
  // CHECK: long first = ::cei::rt::sync_read(a)[0];
  long either = c ? a[0] : a[1];
  // CHECK: long either = c ? ::cei::rt::sync_read(a)[0] : ::cei::rt::sync_read(a)[1];
  std::size_t n = a.size();
  // CHECK: std::size_t n = ::cei::rt::sync_read(a).size();
  consume(a);
  // CHECK: consume(::cei::rt::sync_read(a));
  by_value(a);
  // CHECK: by_value(::cei::rt::sync_read(a));
  long r = ops::sum(a);
  std::printf("%ld %ld %ld %zu\n", r, first, either, n);
  // CHECK: std::printf("%ld %ld %ld %zu\n", ::cei::rt::sync_read(r), first, either, n);
  std::vector<Row> A(2, Row(2, 1.0f));
  vec::bump(A[0], 1.0f);
  float x = A[0][0];
  // CHECK: float x = ::cei::rt::sync_read(A)[0][0];
  (void)x;
}

// -----
// Near forms: a variable no task uses is not synced; a write is synced for writing
// (sync_before_host_write).
void not_this_rule() {
  Vec b = {1, 2};
  long first = b[0];
  // CHECK: long first = b[0];
  Vec a = {1, 2};
  ops::scale(a, 2);
  a[1] = first;
  // CHECK: ::cei::rt::sync(a)[1] = first;
  // CHECK-NOT: sync_read(b)
}
