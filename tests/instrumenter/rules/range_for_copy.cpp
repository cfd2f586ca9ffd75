// RULE: range_for_copy
// A range-for whose loop variable is a copy (`for (Row r : rows)`, `for (float x : row)`) reads
// the range at the loop: the range waits for its tasks (red-team p75, p79, p82, p97). A loop
// variable that is a reference stays an alias of the element: `for (auto& r : rows) bump(r)`
// waits for nothing.
#include "ops.hpp"
#include "rows.hpp"

float copies() {
  std::vector<Row> rows(3, Row(4, 1.0f));
  vec::bump(rows[1], 2.0f);
  float s = 0;
  for (Row r : rows) s += r[0];
  // CHECK: for (Row r : ::cei::rt::sync_read(rows)) s += r[0];
  Row row(4, 1.0f);
  vec::bump(row, 1.0f);
  for (float x : row) s += x;
  // CHECK: for (float x : ::cei::rt::sync_read(row)) s += x;
  Row arr[2] = {Row(2, 1.0f), Row(2, 2.0f)};
  vec::bump(arr[1], 1.0f);
  for (Row r : arr) {
    r[0] = 5.0f;  // writes the copy: the range is still only read
    s += r[0];
  }
  // CHECK: for (Row r : ::cei::rt::sync_read(arr)) {
  return s;
}

float references() {
  std::vector<Row> rows(3, Row(4, 1.0f));
  for (auto& r : rows) vec::bump(r, 1.0f);
  // CHECK: for (auto& r : rows) ::cei::rt::call<void>
  // CHECK: inout<std::vector<float>>(r, "r", &(rows))
  float s = 0;
  for (const auto& r : rows) s += r[0];
  // CHECK: for (const auto& r : rows) s += ::cei::rt::sync_read(r)[0];
  for (auto& r : rows) r[1] = 2.0f;
  // CHECK: for (auto& r : rows) ::cei::rt::sync(r)[1] = 2.0f;
  return s;
}
