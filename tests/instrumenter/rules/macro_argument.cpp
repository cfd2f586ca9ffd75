// RULE: macro_argument
// Near forms of macro_argument_refused: a macro that names a whole variable goes in place, a
// variable spelled as a macro's argument is quoted as usual (in a macro that expands to exactly the
// call too), and an `in` argument written with a macro is copied at the call.
#include "ops.hpp"
#include "rows.hpp"

#define WHOLE(v) v
#define ROW(i) rows[i]
#define AT(v, i) v[i]
#define BUMP(v, k) vec::bump(v, k)

float accepted() {
  Row a(3, 1.0f);
  vec::bump(WHOLE(a), 1.0f);
  // CHECK: inout<std::vector<float>>(WHOLE(a), "WHOLE(a)")
  std::vector<Row> grid(2, Row(3, 1.0f));
  vec::bump(AT(grid, 0), 5.0f);
  // CHECK: inout<std::vector<float>>(AT(grid, 0), "AT(grid, 0)", &(grid))
  BUMP(grid[1], 2.0f);
  // CHECK: inout<std::vector<float>>(grid[1], "grid[1]", &(grid))
  std::vector<Row> rows(2, Row(3, 1.0f));
  return vec::total(ROW(1));
  // CHECK: in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(ROW(1))))
}
