// RULE: pointer_alias
// A local pointer, iterator or view set from a variable that tasks write (`int* p = v.data()`,
// `auto it = w.begin()`, `std::span<long> s(v)`, `auto e = it + 1`), and a reference bound through
// one (`const long& x = *it`), points into that variable: a use that reaches the data waits for
// the variable's tasks, as a use of the variable does (`((void)::cei::rt::sync_read(v), p)[0]`;
// `sync` for a write, or where the pointer escapes into a call). Moving or comparing the pointer
// waits for nothing.
#include <cstdio>
#include <span>
#include <vector>

#include "ops.hpp"

void consume(long* p);
void look(const long* p);

// -----
void pointers() {
  Vec v = {1, 2, 3};
  long* p = v.data();
  ops::scale(v, 2);
  std::printf("%ld %ld\n", p[0], *(p + 1));
  // CHECK: std::printf("%ld %ld\n", ((void)::cei::rt::sync_read(v), p)[0], *(((void)::cei::rt::sync_read(v), p) + 1));
  p[2] = 7;
  // CHECK: ((void)::cei::rt::sync(v), p)[2] = 7;
  consume(p);
  // CHECK: consume(((void)::cei::rt::sync(v), p));
  const long* q = v.data();
  look(q);
  // CHECK: look(((void)::cei::rt::sync_read(v), q));
  ++p;
  // CHECK: ++p;
}

// -----
void iterators_and_views() {
  Vec w = {1, 2, 3};
  auto it = w.begin();
  auto next = it + 1;
  ops::scale(w, 5);
  long a = *it;
  // CHECK: long a = *((void)::cei::rt::sync_read(w), it);
  *next = a;
  // CHECK: *((void)::cei::rt::sync(w), next) = a;
  for (; it != w.end(); ++it) a += *it;
  // CHECK: for (; it != ::cei::rt::sync(w).end(); ++it) a += *((void)::cei::rt::sync_read(w), it);
  std::span<long> s(w);
  ops::scale(w, 2);
  a += s[1] + static_cast<long>(s.size());
  // CHECK: a += ((void)::cei::rt::sync_read(w), s)[1] + static_cast<long>(s.size());
  const long& last = *(w.end() - 1);
  ops::scale(w, 2);
  std::printf("%ld %ld\n", a, last);
  // CHECK: std::printf("%ld %ld\n", a, ((void)::cei::rt::sync_read(w), last));
}

// -----
// Refused: a lambda that uses the pointer where the variable's name does not reach.
void lambda_without_the_variable() {
  Vec v = {1, 2};
  long* p = v.data();
  ops::scale(v, 2);
  auto f = [p] { return p[0]; };  // expected-error@25 {{'p' points into 'v', which tasks write, and that name does not reach here; capture 'v' by reference, or call cei::wait_on(v) before this use runs [ceic-untracked-alias]}}
  (void)f;
}

// -----
// Near forms: a pointer into a variable no task writes, and a value (not a pointer) computed from
// one, wait for nothing.
void not_this_rule() {
  Vec v = {1, 2}, u = {3, 4};
  long* p = u.data();
  ops::scale(v, 2);
  long n = static_cast<long>(v.size());
  std::printf("%ld %ld\n", p[0], n);
  // CHECK: std::printf("%ld %ld\n", p[0], n);
}

// -----
// A pointer into an element of a vector of task data (issue 36's `pts[0].data()`): a host write
// through it right after the CE call waits for the task first, as in -seq.
void element_pointer() {
  std::vector<Vec> pts(2, Vec{1, 2, 3});
  long* p = pts[0].data();
  ops::scale(pts[0], 2);
  p[0] = 9;
  // CHECK: ((void)::cei::rt::sync(pts), p)[0] = 9;
}
