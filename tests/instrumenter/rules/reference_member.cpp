// RULE: reference_member
// Near forms of reference_member_refused that stay tracked: a member that is an object, and the
// object a reference member refers to, passed by its own name.
#include "ops.hpp"
#include "rows.hpp"

struct Holder {
  Row row;
};

struct V {
  Row& ref;
};

float tracked() {
  Holder h{Row(4, 1.0f)};
  vec::bump(h.row, 2.0f);
  // CHECK: inout<std::vector<float>>(h.row, "h.row", &(h))
  Row a(4, 1.0f);
  V s{a};
  vec::bump(a, 1.0f);
  // CHECK: inout<std::vector<float>>(a, "a")
  return a[0] + s.ref[1];
  // CHECK: return ::cei::rt::sync_read(a)[0] + s.ref[1];
}
