// RULE: sync_at_exit
// Variables that outlive the function (reference parameters, fields reached through `this`,
// globals, statics) get a ::cei::rt::SyncAtExit in every function that hands them to tasks: they
// are up to date, and no task reads them any more, when the function returns.
#include "ops.hpp"

Vec global = {1, 2};

// -----
struct Owner {
  Vec data;
  void scale() { ops::scale(data, 2); }
  // CHECK: void scale() { ::cei::rt::SyncAtExit __cei_exit_data(this->data); ::cei::rt::call<void>(__cei_ce_OpsCEI_scale, ::cei::rt::inout<std::vector<long>>(data, "data"), ::cei::rt::in<long>(2)); }
};

void by_reference(Vec& out, const Vec& in) { out = ops::add(in, in); }
// CHECK: void by_reference(Vec& out, const Vec& in) { ::cei::rt::SyncAtExit __cei_exit_out(out); ::cei::rt::SyncAtExit __cei_exit_in(in);

void outliving() {
  ops::scale(global, 2);
  static Vec kept = {1};
  ops::scale(kept, 2);
}
// CHECK: void outliving() { ::cei::rt::SyncAtExit __cei_exit_global(::global);
// CHECK: static Vec kept = {1}; ::cei::rt::SyncAtExit __cei_exit_kept(kept);

// -----
// Near forms: a local gets a Scope instead (scope_guard); a function that hands none of them to a
// task gets no guard, and syncs each use.
void not_this_rule(Vec& out) {
  Vec local = {1};
  ops::scale(local, 2);
  // CHECK: ::cei::rt::Scope __cei_scope_local(local);
  // CHECK-NOT: __cei_exit_local
}

long reader(const Vec& in) { return in[0]; }
// CHECK: long reader(const Vec& in) { return in[0]; }
