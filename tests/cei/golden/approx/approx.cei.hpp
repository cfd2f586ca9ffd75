#pragma once
#include <cei/cei.hpp>
#include "blur.hpp"

struct [[cei::interface]] BlurCEI {
  [[cei::method(declaring_class = "blur")]] [[cei::approximate(declaring_class = "blur_fast")]]
  [[cei::opencl(kernel = "blur.cl", global_work_size = "par0.x")]]
  [[cei::opencl(kernel = "blur.cl", global_work_size = "par0.x / 2", name = "smooth_fast",
                approximate = true)]]
  [[cei::significance("100 - par1 * 10")]]
  static void smooth([[cei::inout]] cei::Vector<float>& image, int passes);
  [[cei::method(declaring_class = "blur")]] [[cei::significance("0", droppable = true)]]
  static void sharpen([[cei::inout]] cei::Vector<float>& image, int passes);
};
