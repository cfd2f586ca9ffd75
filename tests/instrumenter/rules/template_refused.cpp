// RULE: template_refused
// A CE call inside a template (function template, member of a class template) or a generic
// lambda is refused: call it from a non-template function.
#include "ops.hpp"

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
