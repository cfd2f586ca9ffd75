// RULE: native_body_plain
// Calls inside a CE's own native implementation stay plain calls: the task runs them in order.
#include "ops.hpp"

// -----
namespace ops {
long checked_div(long a, long b) { return busy(a, 1) / busy(b, 1); }
// CHECK: long checked_div(long a, long b) { return busy(a, 1) / busy(b, 1); }
}  // namespace ops

// -----
// Near form: the same calls in a function that is no CE's implementation are tasks.
long not_this_rule(long a, long b) { return ops::busy(a, 1) / ops::busy(b, 1); }
// CHECK: return ::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(a, "a"), ::cei::rt::in<long>(1)).get() / ::cei::rt::call<long>(__cei_ce_OpsCEI_busy, ::cei::rt::in<long>(b, "b"), ::cei::rt::in<long>(1)).get();
