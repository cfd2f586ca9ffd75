// RULE: destructor_reads
// A local whose class has a destructor the program wrote (its own, a base's or a member's) may
// read, when it dies, what tasks wrote to it: its data are brought up to date then (a SyncAtExit
// after its Scope, which ends first), not forgotten (issue 39, item 4).
#include <cstdio>
#include "ops.hpp"

struct Logged {
  Vec data = {1, 2};
  ~Logged() { std::printf("%ld\n", data[0]); }
};
struct Outer {
  Logged inner;
};

// -----
void reads_at_end() {
  Logged l;
  ops::scale(l.data, 2);
  // CHECK: Logged l; ::cei::rt::Scope __cei_scope_l(l); ::cei::rt::SyncAtExit __cei_kept_l(l);
  Outer o;
  ops::scale(o.inner.data, 3);
  // CHECK: Outer o; ::cei::rt::Scope __cei_scope_o(o); ::cei::rt::SyncAtExit __cei_kept_o(o);
}

// -----
// Near form: a class whose destructor is the compiler's (and a std::vector's) forgets its data.
struct Plain {
  Vec data = {1, 2};
};
void forgets() {
  Plain p;
  ops::scale(p.data, 2);
  Vec v = {1};
  ops::scale(v, 2);
  // CHECK-NOT: __cei_kept_
}
