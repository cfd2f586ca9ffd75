// RULE: macro_variable_refused
// A use of a tracked variable written inside a macro body is refused: pass it to the macro as an
// argument.
#include "ops.hpp"

#define FIRST_OF_V (v[0])
#define FIRST(x) ((x)[0])

// -----
long refused() {
  Vec v = {1, 2};
  ops::scale(v, 2);
  return FIRST_OF_V;  // expected-error@10 {{ceic: a variable that tasks use is referenced inside a macro body; pass it to the macro as an argument}}
}

// -----
// Near form: the variable passed as the macro's argument is synced where it is written.
long instead() {
  Vec v = {1, 2};
  ops::scale(v, 2);
  return FIRST(v);
  // CHECK: return FIRST(::cei::rt::sync_read(v));
}
