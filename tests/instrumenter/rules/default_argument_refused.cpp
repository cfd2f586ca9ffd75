// RULE: default_argument_refused
// A CE call relying on a default argument is refused: pass it.
#include "ops.hpp"

namespace ops {
long busy(long x, long ms = 1);  // a default argument added by a redeclaration
}

// -----
long refused() {
  return ops::busy(3);  // expected-error@10 {{ceic: a CE call cannot rely on a default argument; pass it}}
}

// -----
// Near form: the argument passed.
long instead() {
  return ops::busy(3, 1);
  // CHECK: return ::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(3), ::cei::rt::in<long>(1)).get();
}
