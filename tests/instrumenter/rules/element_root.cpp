// RULE: element_root
// `v`, `s.f`, `a[i]` (a built-in array), `v[i]`, `m(i, j)` of the containers that own their
// elements (std::vector, array, deque, map, unordered_map, string, valarray, cei::Array): the
// argument is tracked under its variable, named as the task's root, `&(v)`.
#include <array>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <valarray>

#include <cei/array.hpp>

#include "ops.hpp"
#include "rows.hpp"

struct Holder {
  Row row;
  double acc = 0;
};

// -----
void elements() {
  Row r(2, 1.0f);
  vec::bump(r, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(r, "r")
  Holder h;
  vec::bump(h.row, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(h.row, "h.row", &(h))
  Row a[2];
  vec::bump(a[1], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(a[1], "a[1]", &(a))
  std::vector<Row> v(2);
  vec::bump(v[0], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[0], "v[0]", &(v))
  std::array<Row, 2> arr;
  vec::bump(arr[1], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(arr[1], "arr[1]", &(arr))
  std::deque<Row> dq(2);
  vec::bump(dq[1], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(dq[1], "dq[1]", &(dq))
  std::map<int, Row> m;
  vec::bump(m[3], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(m[3], "m[3]", &(m))
  std::unordered_map<int, Row> um;
  vec::bump(um[3], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(um[3], "um[3]", &(um))
  std::valarray<double> va(2);
  ops::accumulate(va[1], 1.0);
  // CHECK: ::cei::rt::inout<double>(va[1], "va[1]", &(va))
  cei::Matrix<double> mx(2, 2);
  ops::accumulate(mx(0, 1), 1.0);
  // CHECK: ::cei::rt::inout<double>(mx(0, 1), "mx(0, 1)", &(mx))
  ops::accumulate(h.acc, 1.0);
  // CHECK: ::cei::rt::inout<double>(h.acc, "h.acc", &(h))
  std::vector<std::vector<Row>> nested(2, std::vector<Row>(2));
  vec::bump(nested[1][0], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(nested[1][0], "nested[1][0]", &(nested))
}

// -----
// Near form: an element of a pointer is no element of a variable ceic can name (pointer_refused).
void not_this_rule(Row* p) {
  vec::bump(p[1], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is an element reached through a pointer}}
}
