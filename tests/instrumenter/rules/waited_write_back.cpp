// RULE: waited_write_back
// A waited CE call whose full expression also uses, on the host, a variable its task writes
// (`c.hist.push_back(c.add(1))`, add an instance CE of c): the task's outputs are written back to
// their variables before the expression goes on (`::cei::rt::call_synced<R>(...)`), so the host's
// write to c.hist lands on what the task wrote, and no later sync overwrites it. So is a result
// assigned to a member of the object the task writes (`c.total = c.add(3)`): the host assigns it
// after the write-back, not a task racing the write-back (red team of issue 39, p33).
#include "ops.hpp"
#include "storage.hpp"

// -----
void instance_result_into_member() {
  Tally c;
  c.hist.push_back(c.add(1));
  // CHECK: ::cei::rt::sync(c).hist.push_back(::cei::rt::call_synced<long>(__cei_ce_TallyCEI_add, ::cei::rt::inout<Tally>(c, "c"), ::cei::rt::in<long>(1)));
  c.total = c.add(3);
  // CHECK: ::cei::rt::sync(c).total = ::cei::rt::call_synced<long>(__cei_ce_TallyCEI_add, ::cei::rt::inout<Tally>(c, "c"), ::cei::rt::in<long>(3));
  c.total += c.add(10);
  // CHECK: ::cei::rt::sync(c).total += ::cei::rt::call_synced<long>(__cei_ce_TallyCEI_add, ::cei::rt::inout<Tally>(c, "c"), ::cei::rt::in<long>(10));
}

// -----
void inout_argument_beside() {
  Vec v = {1, 2};
  ops::scale(v, 2), v.push_back(1);
  // CHECK: ::cei::rt::call_synced<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(v, "v"), ::cei::rt::in<long>(2)), ::cei::rt::sync(v).push_back(1);
}

// -----
// Near forms: the expression uses no variable the task writes (only what it reads), or the call
// is a statement of its own: waited (or not) as before.
void not_this_rule() {
  Tally c, d;
  Tally e;
  e.total = c.add(4);
  // CHECK: ::cei::rt::call_into<long>(::cei::rt::out<long>(e.total, "e.total", &(e)), __cei_ce_TallyCEI_add, ::cei::rt::inout<Tally>(c, "c"), ::cei::rt::in<long>(4));
  d.hist.push_back(c.add(1));
  // CHECK: d.hist.push_back(::cei::rt::call<long>(__cei_ce_TallyCEI_add, ::cei::rt::inout<Tally>(c, "c"), ::cei::rt::in<long>(1)).get());
  Vec v = {1, 2};
  std::vector<long> sums;
  sums.push_back(ops::sum(v) + v[0]);
  // CHECK: sums.push_back(::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v, "v")).get() + ::cei::rt::sync_read(v)[0]);
  c.add(2);
  // CHECK: ::cei::rt::call<long>(__cei_ce_TallyCEI_add, ::cei::rt::inout<Tally>(c, "c"), ::cei::rt::in<long>(2));
}
