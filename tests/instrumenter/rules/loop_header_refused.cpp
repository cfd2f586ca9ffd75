// RULE: loop_header_refused
// A variable handed to a task but declared in the header of a for/if/while/switch is refused:
// declare it in the block.
#include "ops.hpp"

// -----
long refused() {
  long s = 0;
  for (Vec v = {1, 2}; s < 10;) s = ops::sum(v) + s;  // expected-error@12 {{ceic: variable 'v' is used by a task; declare it in a block, not in the header of a for, if, while or switch}}
  if (Vec w = {1}; s > 0) ops::scale(w, 2);  // expected-error@11 {{ceic: variable 'w' is used by a task; declare it in a block}}
  return s;
}

// -----
// Near forms: declared in the block; the loop variable of a range-for (it gets its Scope at the
// start of the body).
long instead() {
  long s = 0;
  Vec v = {1, 2};
  for (; s < 10;) s = ops::sum(v) + s;
  // CHECK: Vec v = {1, 2}; ::cei::rt::Scope __cei_scope_v(v);
  std::vector<Vec> vs(2);
  for (Vec w : vs) {
    ops::scale(w, 2);
  }
  // CHECK: for (Vec w : vs) { ::cei::rt::Scope __cei_scope_w(w);
  return s;
}
