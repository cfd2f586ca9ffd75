// The Core Element Interface of the digits example: the CNN's layers, each over a whole batch.
// One inference is a chain of eight tasks: conv, relu, pool, conv, relu, pool, dense, classify.
#pragma once
#include <cei/cei.hpp>

#include "digits.hpp"

// clang-format off
struct [[cei::interface]] DigitsCEI {
  [[cei::method(declaring_class = "digits")]]
  [[cei::opencl(kernel = "digits.cl", global_work_size = "par0.x, par3, par0.z",
                result_size = "par0.x, par3, par0.z")]]
  // The input has in_channels channels and the weights out_channels 3x3 filters over them, then
  // out_channels biases: what the native version checks and the kernel indexes by.
  [[cei::requires("par0.y == par2")]] [[cei::requires("par1.x == par3 * (par2 * 9 + 1)")]]
  static cei::Array<float, 3> conv([[cei::in]] const cei::Array<float, 3>& input,
                                   [[cei::in]] const cei::Vector<float>& weights,
                                   int in_channels, int out_channels);

  [[cei::method(declaring_class = "digits")]]
  [[cei::opencl(kernel = "digits.cl", global_work_size = "par0.x * par0.y * par0.z",
                result_size = "par0.x, par0.y, par0.z")]]
  static cei::Array<float, 3> relu([[cei::in]] const cei::Array<float, 3>& x);

  [[cei::method(declaring_class = "digits")]]
  [[cei::opencl(kernel = "digits.cl", global_work_size = "par0.x, par0.y, par0.z / 4",
                result_size = "par0.x, par0.y, par0.z / 4")]]
  static cei::Array<float, 3> pool([[cei::in]] const cei::Array<float, 3>& x);

  [[cei::method(declaring_class = "digits")]]
  [[cei::opencl(kernel = "digits.cl", global_work_size = "par0.x, par3",
                result_size = "par0.x, par3")]]
  // inputs features per image, outputs x inputs weights then outputs biases.
  [[cei::requires("par0.y * par0.z == par2")]] [[cei::requires("par1.x == par3 * (par2 + 1)")]]
  static cei::Matrix<float> dense([[cei::in]] const cei::Array<float, 3>& x,
                                  [[cei::in]] const cei::Vector<float>& weights, int inputs,
                                  int outputs);

  [[cei::method(declaring_class = "digits")]]
  [[cei::opencl(kernel = "digits.cl", global_work_size = "par0.x", result_size = "par0.x")]]
  [[cei::requires("par0.y == par1")]]  // one score per class
  static cei::Vector<int> classify([[cei::in]] const cei::Matrix<float>& scores, int classes);
};
// clang-format on
