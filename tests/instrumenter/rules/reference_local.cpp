// RULE: reference_local
// `auto& a = A[i];` then `ce(a)`: tracked as A's element. The binding waits for nothing; uses of
// `a` wait for that element's tasks (::cei::rt::sync(a)).
#include "ops.hpp"
#include "rows.hpp"

// -----
void references() {
  std::vector<Row> A(3, Row(2, 1.0f));
  for (int i = 0; i < 3; ++i) {
    auto& a = A[i];
    // CHECK: auto& a = A[i];
    vec::bump(a, 1.0f);
    // CHECK: ::cei::rt::inout<std::vector<float>>(a, "a", &(A))
    a[0] = 2.0f;
    // CHECK: ::cei::rt::sync(a)[0] = 2.0f;
    float x = a[1];
    // CHECK: float x = ::cei::rt::sync_read(a)[1];
    (void)x;
  }
  Row& last = A.back();
  vec::bump(last, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(last, "last", &(A))
}

// -----
// Near form: where tasks also use the container itself, a use of the element waits for all of
// the container's tasks, and so does the binding.
void not_this_rule() {
  Vec v = {1, 2};
  ops::scale(v, 2);
  auto& e = v[0];
  // CHECK: auto& e = ::cei::rt::sync(v)[0];
  e = 5;
  // CHECK: ((void)::cei::rt::sync(v), e) = 5;
}
