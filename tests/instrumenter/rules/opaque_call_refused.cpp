// RULE: opaque_call_refused
// A call of a function returning a reference whose body ceic cannot see or is more than one
// `return`; a virtual member function; `f(i)` of a std::function; `s[i]` of a view or handle
// (std::span, std::unique_ptr<T[]>): refused; pass the variable, member or element it returns.
#include <functional>
#include <memory>
#include <span>

#include "ops.hpp"
#include "rows.hpp"

Row& elsewhere(std::vector<Row>& rows, int i);  // no body here

Row& two_statements(std::vector<Row>& rows, int i) {
  Row& r = rows[i];
  return r;
}

struct Base {
  Row own;
  virtual Row& row() { return own; }
  virtual ~Base() = default;
};

// -----
void refused(Base& b, std::function<Row&(int)> f, std::unique_ptr<Row[]>& owned,
             std::span<Row> view) {
  std::vector<Row> v(3, Row(2, 1.0f));
  vec::bump(elsewhere(v, 0), 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of 'elsewhere' that returns a reference and whose body ceic cannot see through: ceic cannot tell which variable the task writes, so later host uses would not wait for it; pass the variable, member or element it stands for; ceic sees through a function, member function or lambda only when its body is 'return <element or member of a parameter, of this or of a variable captured by reference>;' [ceic-untracked-argument]}}
  vec::bump(two_statements(v, 0), 1.0f);  // expected-error@13 {{is a call of 'two_statements' that returns a reference and whose body ceic cannot see through}}
  vec::bump(b.row(), 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of virtual 'Base::row'}}
  vec::bump(f(0), 1.0f);  // expected-error@13 {{that returns a reference and whose body ceic cannot see through}}
  vec::bump(owned[0], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of 'std::unique_ptr<}}
  vec::bump(view[1], 1.0f);  // expected-error@13 {{the inout argument of CE 'bump' is a call of 'std::span<}}
}

// -----
// What to write instead: the variable, member or element the call returns.
void instead(Base& b) {
  std::vector<Row> v(3, Row(2, 1.0f));
  vec::bump(v[0], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(v[0], "v[0]", &(v))
  vec::bump(b.own, 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(b.own, "b.own", &(b))
}
