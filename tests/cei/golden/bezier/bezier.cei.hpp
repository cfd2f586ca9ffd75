// Every argument of cei::opencl, a kernel in a subfolder with its own name, a 3-D array, an out
// parameter and expressions with indexing, parentheses and unary minus.
#pragma once
#include <cei/cei.hpp>
#include "bezier.hpp"

struct [[cei::interface]] BezierCEI {
  [[cei::method(declaring_class = "bezier")]]
  [[cei::opencl(kernel = "kernels/bezier.cl", name = "bezier_eval",
                global_work_size = "(par0.x + 3) / 4 * 4, par1[0] * par2, par0.z",
                local_work_size = "4, 4, 1",
                offset = "0, -(-1) - 1, par2 % 2")]]
  static void evaluate(const cei::Array<float, 3>& control,
                       const cei::Vector<std::int64_t>& counts, int resolution,
                       [[cei::out]] cei::Array<float, 3>& out);

  [[cei::method(declaring_class = "bezier")]]
  [[cei::opencl(kernel = "kernels/bezier.cl", global_work_size = "par0.x",
                result_size = "par0.x - par1 + par1")]]
  static cei::Vector<double> lengths(const cei::Array<float, 3>& control, int samples);
};
