// RULE: header_global
// A call of an inline function of a header that reads a global (directly or through the inline
// functions it calls) waits first for the tasks on that global that its caller started: ceic
// rewrites no use inside a header (issue 39, item 9).
#include "header_global.hpp"

Vec shared = {1, 2};

// -----
long reads_through_header() {
  ops::scale(shared, 3);
  long a = first_of_shared();
  // CHECK: long a = ((void)::cei::rt::sync(::shared), first_of_shared());
  long b = twice_first() + unrelated(a);
  // CHECK: long b = ((void)::cei::rt::sync(::shared), twice_first()) + unrelated(a);
  return a + b;
}

// -----
// Near form: a function whose tasks do not use the global calls the same functions as they are.
long no_task() { return first_of_shared(); }
// CHECK: long no_task() { return first_of_shared(); }
