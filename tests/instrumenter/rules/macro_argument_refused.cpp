// RULE: macro_argument_refused
// An out/inout argument written with a macro (`#define ROW(i) rows[i]`) is refused: the root's
// name lies in the macro's body, where the rewrite cannot name it (red-team p89m).
#include "ops.hpp"
#include "rows.hpp"

#define ROW(i) rows[i]
#define AT(v, i) v[i]

void refused() {
  std::vector<Row> rows(2, Row(3, 1.0f));
  vec::bump(ROW(1), 5.0f);  // expected-error@13 {{the inout argument of CE 'bump' is written with the macro 'ROW'}}
  vec::bump(AT(rows, 0), 5.0f);  // expected-error@13 {{is written with the macro 'AT'}}
}
