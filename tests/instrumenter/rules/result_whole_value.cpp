// RULE: result_whole_value
// A variable whose whole value is a CE's result (`T x = ce(...);` or `x = ce(...);`) counts as
// whole task data: a later `x[i] = ce(...)` or `ce2(x[i])` takes the element once x's value is
// there (`::cei::rt::sync(x)[i]`), not from the empty `T x{}` the declaration starts with.
#include "ops.hpp"

// -----
void element_of_pending_result() {
  Vec a = {1, 2};
  Vec x = ops::add(a, a);
  x[1] = ops::sum(a);
  // CHECK: ::cei::rt::out<long>(::cei::rt::sync(x)[1], "x[1]"
  Vec y;
  y = ops::iota(3, 0);
  y[0] = ops::sum(a);
  // CHECK: ::cei::rt::out<std::vector<long>>(::cei::rt::sync(y), "y"),
  // CHECK: ::cei::rt::out<long>(::cei::rt::sync(y)[0], "y[0]"
  ops::busy(x[0], 1);
  // CHECK: ::cei::rt::in<long>(::cei::rt::sync_read(x)[0], "x[0]")
}

// -----
// Near form: a variable that no task assigns as a whole: its elements are task data of their own.
void not_this_rule() {
  Vec a = {1, 2};
  std::vector<long> parts(2);
  parts[0] = ops::sum(a);
  parts[1] = ops::sum(a);
  // CHECK: ::cei::rt::out<long>(parts[0], "parts[0]",
  // CHECK: ::cei::rt::out<long>(parts[1], "parts[1]",
  // CHECK-NOT: ::cei::rt::sync(parts)
}
