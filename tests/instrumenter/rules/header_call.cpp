// RULE: header_call
// CE calls in headers are not rewritten: they run sequentially, on synced data, since any call
// that passes tracked data to a function syncs it first.
#include "header_call.hpp"

// -----
long through_header() {
  Vec v = {1, 2};
  ops::scale(v, 2);
  return header_total(v);
  // CHECK: return header_total(::cei::rt::sync_read(v));
  // CHECK-NOT: __cei_ce_OpsCEI_sum
}

// -----
// Near form: the same call in the source itself is a task.
long in_source() {
  Vec v = {1, 2};
  return ops::sum(v);
  // CHECK: return ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v, "v")).get();
}
