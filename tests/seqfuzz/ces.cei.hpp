// The Core Element Interface of the seqfuzz programs: every parameter direction (in, out, inout)
// over std::vector<double>, cei::Matrix/cei::Vector, double and int, CEs returning a value, an
// instance CE (one of a polymorphic class), a CE that throws, and OpenCL versions of some of them
// (ces.cl).
#pragma once
#include <cei/cei.hpp>

#include "ces.hpp"

// clang-format off
struct [[cei::interface]] FuzzCEI {
  [[cei::method(declaring_class = "fz")]]
  [[cei::opencl(kernel = "ces.cl", global_work_size = "par0.x", result_size = "par0.x")]]
  static DVec vscale([[cei::in]] const DVec& a, double k);

  [[cei::method(declaring_class = "fz")]]
  [[cei::opencl(kernel = "ces.cl", global_work_size = "par0.x")]]
  static void vbump([[cei::inout]] DVec& v, double k);

  [[cei::method(declaring_class = "fz")]]
  static void vfill([[cei::out]] DVec& v, int n, double start);

  [[cei::method(declaring_class = "fz")]]
  [[cei::opencl(kernel = "ces.cl", global_work_size = "par0.x", result_size = "1")]]
  static double vsum([[cei::in]] const DVec& a);

  [[cei::method(declaring_class = "fz")]]
  static int icount([[cei::in]] const DVec& v, double thr);

  [[cei::method(declaring_class = "fz")]]
  static void sget([[cei::out]] double& x, [[cei::in]] const DVec& v, int i);

  [[cei::method(declaring_class = "fz")]]
  static void iinc([[cei::inout]] int& x, int by);

  [[cei::method(declaring_class = "fz")]]
  static double checked([[cei::in]] const DVec& v, double d);

  [[cei::method(declaring_class = "fz")]]
  [[cei::opencl(kernel = "ces.cl", global_work_size = "par0.x, par0.y")]]
  static void maxpy([[cei::inout]] DMat& m, [[cei::in]] const DMat& a, double k);

  [[cei::method(declaring_class = "fz")]]
  [[cei::opencl(kernel = "ces.cl", global_work_size = "par0, par1", result_size = "par0, par1")]]
  static DMat mmake(int rows, int cols, double seed);

  [[cei::method(declaring_class = "fz")]]
  static double mtrace([[cei::in]] const DMat& m);

  [[cei::method(declaring_class = "fz")]]
  static void arow([[cei::inout]] DArr& a, [[cei::in]] const DVec& v);
};

struct [[cei::interface]] AccCEI {
  [[cei::method(declaring_class = "Acc")]]
  void add(double x);
  [[cei::method(declaring_class = "Acc")]]
  void absorb([[cei::in]] const DVec& v);
};
struct [[cei::interface]] ShapeCEI {
  [[cei::method(declaring_class = "Shape")]]
  void grow(double k);
};
// clang-format on
