// RULE: lambda_callback
// A lambda that hands a variable it captured by reference to a task is a callback: whoever calls
// it may read that variable when it returns (`run(f, d)` calls f, then reads d), so the variable
// is up to date when the lambda returns (a SyncAtExit, as for a reference parameter). A lambda
// only called where it is made, or held in a local the same body only calls, needs none: that
// body's own later uses wait. In either, a reference parameter of the lambda may be bound to the
// captured variable (`f(a)` of `[&a](const Vec& s)`): a use of it waits for the capture's tasks
// (issue 39, items 5 and 7).
#include <functional>
#include "ops.hpp"

void run(const std::function<void()>& f, const Vec& b);

// -----
void callback() {
  Vec d = {1, 2};
  run([&] { ops::scale(d, 2); }, d);
  // CHECK: run([&] { ::cei::rt::SyncAtExit __cei_exit_d(d); ::cei::rt::call<void>(__cei_ce_OpsCEI_scale
}

long parameter_aliases_capture() {
  Vec a = {1, 2};
  auto f = [&a](const Vec& s) {
    ops::scale(a, 7);
    return s[0];
  };
  // CHECK: return ((void)::cei::rt::sync_read(a), s)[0];
  return f(a);
}

// -----
// Near form: called in place; the enclosing body's later reads wait for the task.
long in_place() {
  Vec d = {1, 2};
  auto step = [&](long k) { ops::scale(d, k); };
  step(2);
  step(3);
  [&] { ops::scale(d, 4); }();
  return d[0];
  // CHECK-NOT: __cei_exit_d
  // CHECK: return ::cei::rt::sync_read(d)[0];
}
