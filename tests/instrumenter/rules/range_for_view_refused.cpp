// RULE: range_for_view_refused
// `for (auto& r : view) ce(r)` over a view (std::span, a <ranges> view) is refused as an `out` or
// `inout`: the elements lie in the container the view shows, not under the view, so later reads
// of the container would not wait (issue 39, item 13).
#include <span>
#include "rows.hpp"

// -----
void over_span(std::vector<Row>& table) {
  std::span<Row> rows(table);
  for (auto& r : rows) vec::bump(r, 1.0f);  // expected-error@34 {{ceic: the inout argument of CE 'bump' is 'r', an element of the view 'std::span<Row>', which lies in the variable it views (line 11)}}
}

void over_list(Row& a, Row& b) {
  for (auto& r : {a, b}) vec::total(r);
  for (auto& r : std::span<Row>(&a, 1)) vec::bump(r, 2.0f);  // expected-error@51 {{loop over the container the view shows, or index it (e.g. 'table[i]') [ceic-untracked-argument]}}
}

// -----
// Near form: the container itself.
void over_container(std::vector<Row>& table) {
  for (auto& r : table) vec::bump(r, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(r, "r", &(table))
}
