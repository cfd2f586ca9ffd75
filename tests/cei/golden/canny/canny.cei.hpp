// Two interfaces in one header (one in a namespace), an OpenCL-only CE, several attributes in
// one [[...]], the `using cei:` form, cancel_successors, and a by-value scalar.
#pragma once
#include <cei/cei.hpp>
#include "canny.hpp"

namespace vision {
struct [[cei::interface]] FilterCEI {
  [[cei::method(declaring_class = "canny"), cei::opencl(kernel = "canny.cl",
                                                        global_work_size = "par0.x, par0.y")]]
  static void blur(const cei::Matrix<unsigned char>& in,
                   [[using cei: out]] cei::Matrix<unsigned char>& out, float sigma);

  [[cei::opencl(kernel = "canny.cl", global_work_size = "par0.x, par0.y",
                result_size = "par0.x, par0.y")]]
  [[cei::on_failure(policy = "cancel_successors", retries = 0)]]
  static cei::Matrix<float> gradient(const cei::Matrix<unsigned char>& img);
};
}  // namespace vision

struct [[cei::interface]] StatsCEI {
  [[cei::method(declaring_class = "canny")]]
  static std::size_t count_edges([[cei::in]] const std::vector<unsigned char>& pixels);
};
