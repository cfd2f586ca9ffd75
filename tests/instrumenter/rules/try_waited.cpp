// RULE: try_waited
// A CE call inside the block of a try statement (nested blocks, a function-try-block and a handler
// inside an outer try block included) is waited for at the call, void calls too, so that its
// exception is thrown there, as in the sequential program: the forms that do not wait (assign,
// `T x = ce(...)`, a statement call) are off. Outside try blocks, in a handler, and in a lambda
// body written inside a try block (it runs where it is called), they stay on.
#include <stdexcept>

#include "ops.hpp"

long inside() {
  Vec v = {1, 2};
  long s = 0;
  try {
    s = ops::sum(v);
    // CHECK: s = ::cei::rt::call<long>(__cei_ce_OpsCEI_sum,
    // CHECK: ::cei::rt::in<std::vector<long>>(v, "v")).get();
    long d = ops::checked_div(s, 1);
    // CHECK: long d = ::cei::rt::call<long>(__cei_ce_OpsCEI_checked_div,
    // CHECK: ::cei::rt::in<long>(1)).get();
    ops::scale(v, 2);
    // CHECK: ::cei::rt::call<void>(__cei_ce_OpsCEI_scale,
    // CHECK: ::cei::rt::in<long>(2)).get();
    if (d > 0) {
      for (int i = 0; i < 2; ++i) ops::scale(v, 3);
      // CHECK: ::cei::rt::in<long>(3)).get();
    }
    Counter c;
    c.bump(4);
    // CHECK: ::cei::rt::call<void>(__cei_ce_CounterCEI_bump, ::cei::rt::inout<Counter>(c, "c"),
    // CHECK: ::cei::rt::in<long>(4)).get();
    auto f = [&] {
      try {
        ops::scale(v, 5);
        // CHECK: ::cei::rt::in<long>(5)).get();
      } catch (...) {
      }
    };
    f();
    try {
      ops::scale(v, 6);
      // CHECK: ::cei::rt::in<long>(6)).get();
    } catch (const std::domain_error&) {
      ops::scale(v, 7);  // the handler lies in the outer try block
      // CHECK: ::cei::rt::in<long>(7)).get();
    }
  } catch (const std::exception&) {
    return -1;
  }
  return s;
}

// The guards of its variables go in the try block, the function's only block.
long function_try_block(Vec v, Vec& out) try {
  // CHECK: try { ::cei::rt::Scope __cei_scope_v(v);
  // CHECK: ::cei::rt::SyncAtExit __cei_exit_out(out);
  ops::scale(out, 8);
  // CHECK: ::cei::rt::in<long>(8)).get();
  return ops::sum(v);
} catch (const std::exception&) {
  return -1;
}

long outside() {
  Vec v = {1, 2};
  long s = 0;
  s = ops::sum(v);
  // CHECK: ::cei::rt::call_into<long>(::cei::rt::out<long>(s, "s"), __cei_ce_OpsCEI_sum,
  // CHECK: ::cei::rt::in<std::vector<long>>(v, "v"));
  long d = ops::checked_div(s, 9);
  // CHECK: long d{}; ::cei::rt::Scope __cei_scope_d(d); ::cei::rt::call_into<long>(
  // CHECK: ::cei::rt::in<long>(9));
  ops::scale(v, 10);
  // CHECK: ::cei::rt::in<long>(10));
  // CHECK-NOT: ::cei::rt::in<long>(10)).get()
  try {
    auto f = [&] { ops::scale(v, 11); };  // runs where it is called, maybe outside any try
    // CHECK: ::cei::rt::in<long>(11)); }
    // CHECK-NOT: ::cei::rt::in<long>(11)).get()
    f();
  } catch (const std::exception&) {
    ops::scale(v, 12);
    // CHECK: ::cei::rt::in<long>(12));
    // CHECK-NOT: ::cei::rt::in<long>(12)).get()
  }
  return d;
}
