// No such kernel in the file (the CEI parser's check), or only in code the preprocessor drops.
#pragma once
#include <cei/cei.hpp>

struct [[cei::interface]] MissingCEI {
  [[cei::opencl(kernel = "07_missing_kernel.cl", name = "negate", global_work_size = "par0.x")]]
  static void neg([[cei::inout]] cei::Vector<int>& v);
};

// CHECK: 07_missing_kernel.cei.hpp:6:57: error: kernel 'negate' not found in '07_missing_kernel.cl' (it defines: negative)
