// RULE: macro_argument_refused
// An out/inout argument written with a macro whose body names the variable (`#define ROW(i)
// rows[i]`) is refused: the rewrite cannot quote the root's name there (red-team p89m, p89).
#include "ops.hpp"
#include "rows.hpp"

#define ROW(i) rows[i]

void refused() {
  std::vector<Row> rows(2, Row(3, 1.0f));
  vec::bump(ROW(1), 5.0f);  // expected-error@13 {{the inout argument of CE 'bump' is written with the macro 'ROW'}}
}
