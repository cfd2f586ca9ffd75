// RULE: arg_root_copied
// An `in` argument whose root the analysis cannot name (but not behind a pointer) is copied at
// the call; a CE result whose target cannot be rooted is assigned by the host after a wait; an
// `in` passed as std::move(v) is read in place, not moved from.
#include <utility>

#include "ops.hpp"
#include "rows.hpp"

const Row& pick(const std::vector<Row>& rows, int i) { return i > 0 ? rows[i] : rows[0]; }

void copies() {
  std::vector<Row> rows(2, Row(2, 1.0f));
  vec::axpy(pick(rows, 1), rows[0], rows[1]);
  // CHECK: in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(pick(
}

void assign_through_pointer() {
  Vec v = {1, 2};
  long x = 0;
  long* p = &x;
  *p = ops::sum(v);
  // CHECK: *p = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v)).get();
}

void moved() {
  Vec v = {1, 2};
  long s = 0;
  s += ops::sum(std::move(v));
  // the CE takes a const reference: the task reads v in place, and nothing moves from it
  // CHECK: in<std::vector<long>>(static_cast<const std::vector<long>&>(std::move(v)), &(v))
  s += ops::sum(v);
}

struct Bag {
  std::vector<Row> rows;
};
Bag make_bag();

void temporary_part() {
  std::vector<Row> rows(2, Row(2, 1.0f));
  vec::axpy(make_bag().rows[0], rows[0], rows[1]);
  // CHECK: in<std::vector<float>>(static_cast<std::vector<float>>(static_cast<const std::vector<float>&>(make_bag().rows[0])))
}
