// RULE: iterator_refused
// `*it`, `it->f` of iterators and smart pointers: refused; index the container instead (or keep
// the object in a variable, not behind a smart pointer).
#include <memory>

#include "ops.hpp"
#include "rows.hpp"

struct Holder {
  Row row;
};

// -----
void refused(std::unique_ptr<Row>& owned, std::unique_ptr<Holder>& holder) {
  std::vector<Row> v(3, Row(2, 1.0f));
  auto it = v.begin();
  vec::bump(*it, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a dereferenced iterator or smart pointer: ceic cannot tell which variable the task writes, so later host uses would not wait for it; index the container instead (e.g. 'v[i]'), or keep the object in a variable rather than behind a smart pointer [ceic-untracked-argument]}}
  std::vector<Holder> hs(2);
  auto h = hs.begin();
  vec::bump(h->row, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a member reached through an iterator or smart pointer}}
  vec::bump(*owned, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a dereferenced iterator or smart pointer}}
  vec::bump(holder->row, 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a member reached through an iterator or smart pointer}}
  vec::total(*it);  // expected-error@14 {{the in argument of CE 'total' is a dereferenced iterator or smart pointer: ceic cannot tell which variable the task reads}}
}

// -----
// What to write instead: index the container.
void instead() {
  std::vector<Row> v(3, Row(2, 1.0f));
  for (std::size_t i = 0; i < v.size(); ++i) vec::bump(v[i], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[i], "v[i]", &(v))
  std::vector<Holder> hs(2);
  vec::bump(hs[0].row, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(hs[0].row, "hs[0].row", &(hs))
}
