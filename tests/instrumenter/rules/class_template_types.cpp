// RULE: class_template_types
// A CE may take or return a class template specialization that the CEI header only names
// (`std::pair<long, long>`, `std::optional<long>&`): ceic instantiates it, as the compiler does
// where the CE is called, instead of calling it incomplete (issue 39, item 15).
#include "poly.hpp"

// -----
long calls(const Vec& v) {
  auto mm = poly::minmax(v);
  // CHECK: std::pair<long, long> mm{}; ::cei::rt::Scope __cei_scope_mm(mm); ::cei::rt::call_into<std::pair<long, long>>(
  std::optional<long> o;
  poly::settle(o, 3);
  // CHECK: ::cei::rt::inout<std::optional<long>>(o, "o")
  return mm.first + *o;
}
