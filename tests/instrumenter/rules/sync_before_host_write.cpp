// RULE: sync_before_host_write
// A host use of a tracked variable that may write it (assignment, ++, &x, a non-const member call,
// binding to a non-const reference parameter) goes through ::cei::rt::sync(x): it waits for the
// pending writers of x and for the tasks still reading it.
#include "ops.hpp"

void mutate(Vec& v);

// -----
void writes(bool c) {
  Vec a = {1, 2};
  long s = ops::sum(a);
  a[0] = 7;
  // CHECK: ::cei::rt::sync(a)[0] = 7;
  a.push_back(3);
  // CHECK: ::cei::rt::sync(a).push_back(3);
  mutate(a);
  // CHECK: mutate(::cei::rt::sync(a));
  a = Vec{};
  // CHECK: ::cei::rt::sync(a) = Vec{};
  ++s;
  // CHECK: ++::cei::rt::sync(s);
  long* p = &s;
  // CHECK: long* p = &::cei::rt::sync(s);
  (c ? a[0] : a[1]) = 1;
  // CHECK: (c ? ::cei::rt::sync(a)[0] : ::cei::rt::sync(a)[1]) = 1;
  (void)p;
}

// -----
// Near form: a read of the same variable waits for writers only (sync_read).
void not_this_rule() {
  Vec a = {1, 2};
  long s = ops::sum(a);
  long t = s + a[0];
  // CHECK: long t = ::cei::rt::sync_read(s) + ::cei::rt::sync_read(a)[0];
  // CHECK-NOT: ::cei::rt::sync(
  (void)t;
}
