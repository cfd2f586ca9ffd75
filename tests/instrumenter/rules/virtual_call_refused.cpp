// RULE: virtual_call_refused
// An instance CE of a polymorphic class called on an object whose dynamic class ceic cannot tell
// (a reference or a parameter) is refused: C++ runs the override on the whole object, the task
// would run the declaring class's version on a copy of its part (issue 39, item 11).
#include "poly.hpp"

// -----
void through_reference(BigShape& big) {
  Shape& s = big;
  s.grow(2);  // expected-error@3 {{ceic: instance CE 'grow' of the polymorphic class 'Shape' is called on an object that may be of a derived class}}
}

// -----
void parameter(Shape& s) {
  s.grow(2);  // expected-error@3 {{call it on a variable of the object's own class (not a reference), or make the class final [ceic-virtual-call]}}
}

// -----
// Near forms: an object of exactly its class (a variable, a member), a final class, and the
// override itself, which is not the CE (clang resolved the call to BigShape::grow).
struct Holder {
  Shape inner;
};
void exact(Tile& t, BigShape& big) {
  Shape local;
  local.grow(1);
  // CHECK: ::cei::rt::call<void>(__cei_ce_ShapeCEI_grow, ::cei::rt::inout<Shape>(local, "local"), ::cei::rt::in<long>(1));
  Holder h;
  h.inner.grow(2);
  // CHECK: ::cei::rt::inout<Shape>(h.inner, "h.inner", &(h))
  t.grow(3);
  // CHECK: ::cei::rt::call<void>(__cei_ce_TileCEI_grow, ::cei::rt::inout<Tile>(t, "t"), ::cei::rt::in<long>(3));
  std::vector<Shape> shapes(3);  // a standard container holds exactly Shapes (red team p39)
  shapes[1].grow(5);
  // CHECK: ::cei::rt::call<void>(__cei_ce_ShapeCEI_grow, ::cei::rt::inout<Shape>(shapes[1], "shapes[1]", &(shapes)), ::cei::rt::in<long>(5));
  shapes.back().grow(6);
  // CHECK: ::cei::rt::inout<Shape>(shapes.back(), "shapes.back()", &(shapes))
  big.grow(4);
  // CHECK: b
  // CHECK-NOT: inout<BigShape>
}
