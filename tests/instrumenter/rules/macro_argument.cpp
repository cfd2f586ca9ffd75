// RULE: macro_argument
// Near forms of macro_argument_refused: a macro that names a whole variable goes in place, and an
// `in` argument written with a macro is copied at the call.
#include "ops.hpp"
#include "rows.hpp"

#define WHOLE(v) v
#define ROW(i) rows[i]

float accepted() {
  Row a(3, 1.0f);
  vec::bump(WHOLE(a), 1.0f);
  // CHECK: inout<std::vector<float>>(WHOLE(a))
  std::vector<Row> rows(2, Row(3, 1.0f));
  return vec::total(ROW(1));
  // CHECK: in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(ROW(1))))
}
