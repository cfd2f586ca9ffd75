// RULE: macro_refused
// A CE call inside a macro body where the call is only part of the expansion is refused (call it
// outside the macro); a macro that expands to exactly the call is rewritten.
#include "ops.hpp"

#define TOTAL_PLUS_ONE(v) (ops::sum(v) + 1)
#define TOTAL(v) ops::sum(v)

// -----
long refused() {
  Vec v = {1, 2};
  return TOTAL_PLUS_ONE(v);  // expected-error@10 {{ceic: call of CE 'sum' inside a macro expansion cannot be rewritten; call it outside the macro}}
}

// -----
// Near form: the macro is the call.
long rewritten() {
  Vec v = {1, 2};
  return TOTAL(v) + 1;
  // CHECK: return ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v, "v")).get() + 1;
}
