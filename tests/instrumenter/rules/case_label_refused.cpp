// RULE: case_label_refused
// A variable that tasks use, declared between the case labels of a switch with a label after
// it, is refused: the guard ceic declares after it would be jumped over (g++: "crosses
// initialization"), where the program's own `long s;` is allowed (issue 39, item 15).
#include "ops.hpp"

// -----
double crossed(int sel) {
  switch (sel) {
    case 1:
      double s;  // expected-error@14 {{ceic: variable 's' is used by a task and declared between the case labels of a switch, where the guard ceic declares after it would be jumped over; put the case's statements in a block: 'case 1: { ... }'}}
      s = 1;
      ops::accumulate(s, 2.0);
      return s;
    default:
      return 0;
  }
}

// -----
// Near forms: in a block of its own, or after the last label.
double blocks(int sel) {
  switch (sel) {
    case 1: {
      double s = 1;
      ops::accumulate(s, 2.0);
      return s;
    }
    default:
      double t;
      t = 1;
      ops::accumulate(t, 2.0);
      // CHECK: double t; ::cei::rt::Scope __cei_scope_t(t);
      return t;
  }
}
