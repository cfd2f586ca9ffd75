// RULE: scope_guard
// A local that tasks use gets a ::cei::rt::Scope right after its declaration (a by-value
// parameter at the start of the body): its data are forgotten, after waiting for the tasks that
// read it, when it dies.
#include "ops.hpp"

// -----
Vec by_value(Vec v) {
  v = ops::add(v, v);
  return v;
}
// CHECK: Vec by_value(Vec v) { ::cei::rt::Scope __cei_scope_v(v);

void locals() {
  Vec a = {1, 2}, b = {3, 4};
  // CHECK: Vec a = {1, 2}, b = {3, 4}; ::cei::rt::Scope __cei_scope_a(a); ::cei::rt::Scope __cei_scope_b(b);
  ops::scale(a, 2);
  ops::scale(b, 2);
  {
    Vec c = {5};
    // CHECK: Vec c = {5}; ::cei::rt::Scope __cei_scope_c(c);
    ops::sum(c);
  }
}

// -----
// Near forms: no Scope for a local no task uses, nor for a reference local (it owns nothing).
void not_this_rule() {
  Vec a = {1, 2};
  Vec untouched = {3};
  Vec& alias = a;
  ops::scale(alias, 2);
  (void)untouched;
  // CHECK-NOT: __cei_scope_untouched
  // CHECK-NOT: __cei_scope_alias
  // CHECK: ::cei::rt::Scope __cei_scope_a(a);
}
