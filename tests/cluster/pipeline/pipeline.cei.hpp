// The Core Elements of the relay pipeline (tests/cluster/netns_test.sh, mode pipeline): four
// stages with native versions only, each pinned to a node of its own by the test's [policy.static].
#pragma once
#include <cei/cei.hpp>

#include "pipeline.hpp"

// clang-format off
struct [[cei::interface]] PipelineCEI {
  // Item `item` of `n` floats, made on the node from nothing the program sends but two scalars.
  [[cei::method(declaring_class = "pipeline")]]
  static cei::Vector<float> make(int item, int n, int rounds);

  // A 3-point average, `rounds` times: a value of the same size, made from the previous stage's.
  [[cei::method(declaring_class = "pipeline")]]
  static cei::Vector<float> smooth([[cei::in]] const cei::Vector<float>& x, int rounds);

  // x * 0.5 + 1, `rounds` times.
  [[cei::method(declaring_class = "pipeline")]]
  static cei::Vector<float> rescale([[cei::in]] const cei::Vector<float>& x, int rounds);

  // The item's digest, the only thing that goes back to the program: one double.
  [[cei::method(declaring_class = "pipeline")]]
  static cei::Vector<double> digest([[cei::in]] const cei::Vector<float>& x, int rounds);
};
// clang-format on
