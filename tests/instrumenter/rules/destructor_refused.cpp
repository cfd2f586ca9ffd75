// RULE: destructor_refused
// A CE call in a destructor is refused: a global's (or static's) destructor runs at exit, after
// the runtime has stopped, where the task would never run (issue 39, item 4: it hung there).
#include "ops.hpp"

// -----
struct Flusher {
  Vec data = {1, 2};
  ~Flusher() { ops::scale(data, 2); }  // expected-error@16 {{ceic: call of CE 'scale' in a destructor: a global's or static's destructor runs after the runtime has stopped at exit; call it before the object dies}}
};

// -----
// Near form: the same call in a member function the program calls before the object dies.
struct Closer {
  Vec data = {1, 2};
  void close() { ops::scale(data, 2); }
  // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(data, "data"), ::cei::rt::in<long>(2));
  ~Closer() = default;
};
