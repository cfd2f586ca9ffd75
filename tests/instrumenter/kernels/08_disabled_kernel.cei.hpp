// The kernel exists only in code the preprocessor drops.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] DisabledCEI {
  [[cei::opencl(kernel = "08_disabled_kernel.cl", global_work_size = "par0.x")]]
  static void neg([[cei::inout]] cei::Vector<int>& v);
};

// CHECK: 08_disabled_kernel.cei.hpp:6:5: error: ceic: clang finds no kernel 'neg' in '08_disabled_kernel.cl' (is it inside a disabled #if, or spelled by a macro?)
