// RULE: range_for_map
// The loop variable of a range-for over a map is a key/value pair, which holds the task data
// `m[k]`: a host use of it waits for all of m's tasks (red-team p41, p42, p57, p58, p74, p03, p04,
// p120). A CE argument through it (`kv.second`, or `v` of `auto& [k, v]`, issue 39 item 15) is
// tracked under m and waits for nothing.
#include <map>
#include <unordered_map>

#include "ops.hpp"
#include "rows.hpp"

float reads() {
  std::map<int, Row> m;
  m[1] = Row(4, 1.0f);
  vec::bump(m[1], 2.0f);
  float s = 0;
  for (const auto& kv : m) s += kv.second[0];
  // CHECK: for (const auto& kv : m) s += ((void)::cei::rt::sync_read(m), kv).second[0];
  for (const auto& [k, v] : m) s += v[0] + k;
  // CHECK: for (const auto& [k, v] : m) s += ((void)::cei::rt::sync_read(m), v)[0] + ((void)::cei::rt::sync_read(m), k);
  std::unordered_map<int, Row> um;
  um[4] = Row(2, 1.0f);
  vec::bump(um[4], 1.0f);
  for (auto& kv : um) kv.second[0] = 100.0f;
  // CHECK: for (auto& kv : um) ((void)::cei::rt::sync(um), kv).second[0] = 100.0f;
  return s;
}

void tasks_per_value() {
  std::map<int, Row> m{{1, Row(2, 1.0f)}, {2, Row(2, 2.0f)}};
  for (auto& kv : m) vec::bump(kv.second, 1.0f);
  // CHECK: for (auto& kv : m) ::cei::rt::call<void>
  // CHECK: inout<std::vector<float>>(kv.second, "kv.second", &(m))
  for (auto& [k, v] : m) vec::bump(v, static_cast<float>(k));
  // CHECK: for (auto& [k, v] : m) ::cei::rt::call<void>
  // CHECK: inout<std::vector<float>>(v, "v", &(m))
  float first = m[1][0];
  // CHECK: float first = ::cei::rt::sync_read(m)[1][0];
  (void)first;
}

float copies() {
  std::map<int, Row> m{{1, Row(2, 1.0f)}};
  vec::bump(m[1], 1.0f);
  float s = 0;
  for (auto kv : m) s += kv.second[0];
  // CHECK: for (auto kv : ::cei::rt::sync_read(m)) s += kv.second[0];
  return s;
}
