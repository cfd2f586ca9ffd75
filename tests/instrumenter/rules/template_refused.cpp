// RULE: template_refused
// A CE call inside a template (function template, member of a class template) or a generic
// lambda is refused: call it from a non-template function. So is a call there that clang cannot
// resolve yet but whose name finds a CE (a CE with a non-CE overload, dependent arguments).
// A generic lambda's use of a variable from outside it (a capture) waits as any use does.
#include "ops.hpp"
#include "poly.hpp"

// -----
template <typename T>
long total(const T& v) {
  return ops::sum(v);  // expected-error@10 {{ceic: call of CE 'sum' inside a template or generic lambda is not supported; call it from a non-template function}}
}

template <typename T>
struct Box {
  T v;
  long total() { return ops::sum(v); }  // expected-error@25 {{call of CE 'sum' inside a template}}
};

long use() {
  Box<Vec> b{{1, 2}};
  auto generic = [](const auto& v) { return ops::sum(v); };  // expected-error@45 {{call of CE 'sum' inside a template or generic lambda}}
  return total(Vec{1, 2}) + b.total() + generic(Vec{3});
}

// -----
// Near form: the same call in a plain function, or in a lambda with a declared parameter type.
long total(const Vec& v) { return ops::sum(v); }
// CHECK: long total(const Vec& v) { ::cei::rt::SyncAtExit __cei_exit_v(v); return ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v, "v")).get(); }
long use() {
  auto plain = [](const Vec& v) { return ops::sum(v); };
  // CHECK: auto plain = [](const Vec& v) { ::cei::rt::SyncAtExit __cei_exit_v(v); return ::cei::rt::call<long>(__cei_ce_OpsCEI_sum, ::cei::rt::in<std::vector<long>>(v, "v")).get(); };
  return plain(Vec{1});
}

// -----
// `poly::stretch` has a non-CE overload: with `auto k` clang leaves the call unresolved in the
// lambda's pattern (seqfuzz seed 1507 ran it as a plain call on data a task was still writing).
void overloaded_in_generic_lambda(Vec& v) {
  auto by = [&](auto k) { poly::stretch(v, k); };  // expected-error@27 {{call of CE 'stretch' inside a template or generic lambda}}
  by(2L);
}

// -----
// A generic lambda reading a variable a task writes: the read waits (a write-level sync, the
// expression around it being dependent).
long generic_lambda_reads(Vec& v) {
  ops::scale(v, 2);
  long total = 0;
  auto add = [&](auto k) { total += v[0] * k; };
  // CHECK: auto add = [&](auto k) { total += ::cei::rt::sync(v)[0] * k; };
  add(3L);
  return total;
}
