// RULE: structured_binding_refused
// `auto& [a, b] = pair;` then `ce(a)`: refused; pass the member of the object (`pair.first`).
#include <utility>

#include "ops.hpp"
#include "rows.hpp"

// -----
void refused() {
  std::pair<Row, Row> pr;
  auto& [first, second] = pr;
  vec::bump(first, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a structured binding: ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the member of the object itself (e.g. 'p.first') [ceic-untracked-argument]}}
}

// -----
// What to write instead: the member. (As an `in`, a structured binding is copied at the call:
// in_copied.)
void instead() {
  std::pair<Row, Row> pr;
  vec::bump(pr.first, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(pr.first, &(pr))
  auto& [first, second] = pr;
  vec::axpy(first, second, pr.second);
  // CHECK: ::cei::rt::in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(first)))
  // CHECK: ::cei::rt::inout<std::vector<float>>(pr.second, &(pr))
}
