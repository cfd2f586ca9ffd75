// RULE: reference_member_refused
// A reference member refers to an object that does not lie under its holder (`struct V { Row&
// ref; }`, `std::pair<Row&, Row&>`, a view class's accessor): a task argument through it is
// refused, `in` included (red-team p111, p112, p114).
#include <utility>

#include "ops.hpp"
#include "rows.hpp"

struct V {
  Row& ref;
};

struct RowsView {
  std::vector<Row>& rows;
  Row& row(int i) { return rows[i]; }
};

void refused() {
  Row a(4, 1.0f), b(4, 2.0f);
  V s{a};
  vec::bump(s.ref, 2.0f);  // expected-error@13 {{the inout argument of CE 'bump' is the reference member 'ref', whose object does not lie under its holder}}
  std::vector<Row> rows(2, Row(3, 1.0f));
  RowsView view{rows};
  vec::bump(view.row(1), 2.0f);  // expected-error@13 {{is a call of 'RowsView::row', which returns the reference member 'rows'}}
  std::pair<Row&, Row&> pr{a, b};
  vec::bump(pr.first, 1.0f);  // expected-error@13 {{is the reference member 'first'}}
  float t = vec::total(s.ref);  // expected-error@24 {{the in argument of CE 'total' is the reference member 'ref'}}
  (void)t;
}
