// RULE: structured_binding_use
// A host use of a structured binding of a reference (`auto& [a, b] = p;`) waits for all of p's
// tasks (red-team p19, p48); a binding of a copy uses the copy, read at the declaration.
#include <utility>

#include "ops.hpp"
#include "rows.hpp"

float uses() {
  std::pair<Row, Row> p{Row(3, 1.0f), Row(3, 2.0f)};
  auto& [a, b] = p;
  // CHECK: auto& [a, b] = p;
  vec::bump(p.second, 1.0f);
  float b0 = b[0];
  // CHECK: float b0 = ((void)::cei::rt::sync_read(p), b)[0];
  b[1] = 3.0f;
  // CHECK: ((void)::cei::rt::sync(p), b)[1] = 3.0f;
  float s = vec::total(a);
  // CHECK: static_cast<const std::vector<float>&>(((void)::cei::rt::sync_read(p), a))
  auto [c, d] = p;
  // CHECK: auto [c, d] = ::cei::rt::sync_read(p);
  return b0 + s + c[0] + d[0];
  // CHECK: return b0 + ::cei::rt::sync_read(s) + c[0] + d[0];
}
