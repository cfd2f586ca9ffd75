// RULE: structured_binding_refused
// `auto& [a, b] = pair;` then `ce(a)`: refused; pass the member of the object (`pair.first`). A
// note gives that fix-it where the binding names a member (of a std::pair, or of a class without
// bases), not for other tuple-like types.
#include <tuple>
#include <utility>

#include "ops.hpp"
#include "rows.hpp"

struct Two {
  Row left, right;
};

// -----
void refused(std::vector<Two>& twos) {
  std::pair<Row, Row> pr;
  auto& [first, second] = pr;
  vec::bump(first, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a structured binding: ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the member of the object itself (e.g. 'p.first') [ceic-untracked-argument]}} expected-note@13 {{fix-it: replace 'first' with 'pr.first' ('first' is bound to it at line 18)}}
  vec::bump(second, 1.0f);  // expected-error@13 {{is a structured binding}} expected-note@13 {{fix-it: replace 'second' with 'pr.second'}}
  auto& [l, r] = twos[1];
  vec::bump(r, 1.0f);  // expected-error@13 {{is a structured binding}} expected-note@13 {{fix-it: replace 'r' with 'twos[1].right'}}
  std::tuple<Row, Row> tu;
  auto& [t0, t1] = tu;
  vec::bump(t1, 1.0f);  // expected-error@13 {{is a structured binding}}
}

// -----
// What to write instead: the member. (As an `in`, a structured binding is copied at the call:
// in_copied.)
void instead() {
  std::pair<Row, Row> pr;
  vec::bump(pr.first, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(pr.first, "pr.first", &(pr))
  auto& [first, second] = pr;
  vec::axpy(first, second, pr.second);
  // CHECK: ::cei::rt::in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(((void)::cei::rt::sync_read(pr), first))))
  // CHECK: ::cei::rt::inout<std::vector<float>>(pr.second, "pr.second", &(pr))
}

// A host use of a binding of task data waits for all of the object's tasks; a binding of a copy
// uses the copy, taken after them.
float host_uses() {
  std::pair<Row, Row> pr;
  vec::bump(pr.first, 1.0f);
  auto& [first, second] = pr;
  // CHECK: auto& [first, second] = pr;
  float x = first[0];
  // CHECK: float x = ((void)::cei::rt::sync_read(pr), first)[0];
  second[0] = x;
  // CHECK: ((void)::cei::rt::sync(pr), second)[0] = x;
  auto [a, b] = pr;
  // CHECK: auto [a, b] = ::cei::rt::sync_read(pr);
  return a[0] + b[0];
  // CHECK: return a[0] + b[0];
}
