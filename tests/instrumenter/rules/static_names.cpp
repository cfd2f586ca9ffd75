// RULE: static_names
// Static members, globals in namespaces and static locals handed to tasks are named where the
// guard and the syncs need them: by their qualified name, and after a static local's
// declaration (red-team p66, p69, p70, p71).
#include "ops.hpp"
#include "rows.hpp"

struct Pool {
  static std::vector<Row> pool;
  static Row& get(int i) { return pool[i]; }
};
std::vector<Row> Pool::pool(2, Row(3, 1.0f));

namespace data {
std::vector<Row> G(2, Row(3, 1.0f));
}

float members() {
  // CHECK: float members() { ::cei::rt::SyncAtExit __cei_exit_pool(::Pool::pool); ::cei::rt::SyncAtExit __cei_exit_G(::data::G);
  vec::bump(Pool::pool[1], 2.0f);
  // CHECK: inout<std::vector<float>>(Pool::pool[1], "Pool::pool[1]", &(Pool::pool))
  vec::bump(Pool::get(0), 2.0f);
  // CHECK: inout<std::vector<float>>(Pool::get(0), "Pool::get(0)", &(::Pool::pool))
  float x = Pool::pool[1][0];
  // CHECK: float x = ::cei::rt::sync_read(Pool::pool)[1][0];
  vec::bump(data::G[1], 1.0f);
  // CHECK: inout<std::vector<float>>(data::G[1], "data::G[1]", &(data::G))
  return x + data::G[1][0];
  // CHECK: ::cei::rt::sync_read(data::G)[1][0]
}

float tick(float k) {
  static Row acc{1.0f, 2.0f};
  // CHECK: static Row acc{1.0f, 2.0f}; ::cei::rt::SyncAtExit __cei_exit_acc(acc);
  vec::bump(acc, k);
  return acc[0];
  // CHECK: return ::cei::rt::sync_read(acc)[0];
}
