// RULE: alias_params
// Reference parameters may be bound to the same object or to one another's parts (step(a, a),
// f(rows[1], rows)), or to a global: in a function whose tasks use one of them, a host use of
// another waits for those tasks first (red-team p110, p113). A task argument does so only where
// the two types differ (one may contain the other): tasks on the same object are ordered by the
// runtime.
#include "ops.hpp"
#include "rows.hpp"

std::vector<Row> table(2, Row(2, 1.0f));
std::vector<Row> other(2, Row(2, 1.0f));

float step(Row& x, const Row& y) {
  vec::bump(x, 3.0f);
  return y[0];
  // CHECK: return ((void)::cei::rt::sync_read(x), y)[0];
}

float element_and_container(Row& r, std::vector<Row>& all) {
  vec::bump(r, 2.0f);
  float t = vec::total(all[0]);
  // CHECK: in<std::vector<float>>(((void)::cei::rt::sync_read(r), all)[0], "all[0]", &(all))
  all[1][0] = 4.0f;
  // CHECK: ((void)::cei::rt::sync(r), ::cei::rt::sync(all))[1][0] = 4.0f;
  return t + table[0][0];
  // CHECK: ((void)::cei::rt::sync_read(r), (void)::cei::rt::sync_read(all), ::cei::rt::sync_read(table))[0][0]
}

void same_type(Row& a, Row& b) {
  vec::bump(a, 1.0f);
  vec::axpy(a, a, b);
  // CHECK: ::cei::rt::inout<std::vector<float>>(a, "a")
  // CHECK: ::cei::rt::inout<std::vector<float>>(b, "b")
  // CHECK-NOT: sync(a)
}

float globals_and_locals(float k) {
  Row local(2, 1.0f);
  vec::bump(table[0], k);
  vec::bump(local, k);
  return other[0][0] + local[0];
  // CHECK: return other[0][0] + ::cei::rt::sync_read(local)[0];
}
