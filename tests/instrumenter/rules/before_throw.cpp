// RULE: before_throw
// The program's own `throw`, as a statement, waits first for the tasks submitted so far, and
// throws a CE's exception among them instead: the sequential program would have thrown that one
// at its call, before reaching this `throw` (issue 39, item 8). A comma keeps it one statement.
#include <stdexcept>
#include "ops.hpp"

// -----
long callee(const Vec& v, long d) {
  long r = ops::checked_div(ops::sum(v), d);
  if (r < 0) throw std::runtime_error("negative");
  // CHECK: if (::cei::rt::sync_read(r) < 0) ::cei::rt::before_throw(), throw std::runtime_error("negative");
  try {
    return r;
  } catch (...) {
    throw;
    // CHECK: ::cei::rt::before_throw(), throw;
  }
}

// -----
// Near form: a throw inside an expression keeps its form (the conditional's type needs it).
long inside(long x) { return x > 0 ? x : throw std::domain_error("x"); }
// CHECK: long inside(long x) { return x > 0 ? x : throw std::domain_error("x"); }
