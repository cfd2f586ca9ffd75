// canny's Core Elements as hand-written synchronous OpenCL (see cl_host.hpp), linked with the
// example's unchanged main.cpp in place of canny.cpp.
#include "canny.hpp"
#include "cl_host.hpp"

namespace canny {

cei::Matrix<int> gaussian(const cei::Matrix<int>& image) {
  cei::Matrix<int> out(image.extent(0), image.extent(1));
  cl_host::run("gaussian", {cl_host::in(image)}, {image.extent(0), image.extent(1)}, {}, out);
  return out;
}

cei::Array<int, 3> sobel(const cei::Matrix<int>& blurred) {
  cei::Array<int, 3> out(2, blurred.extent(0), blurred.extent(1));
  cl_host::run("sobel", {cl_host::in(blurred)}, {blurred.extent(0), blurred.extent(1)}, {}, out);
  return out;
}

cei::Matrix<int> nonmax(const cei::Array<int, 3>& gradient) {
  cei::Matrix<int> out(gradient.extent(1), gradient.extent(2));
  cl_host::run("nonmax", {cl_host::in(gradient)}, {gradient.extent(1), gradient.extent(2)}, {},
               out);
  return out;
}

// One work-group, one work-item per row: connectivity is global (see canny.cl).
cei::Matrix<int> hysteresis(const cei::Matrix<int>& thin, int width, int low, int high) {
  cei::Matrix<int> out(thin.extent(0), thin.extent(1));
  cl_host::run(
      "hysteresis",
      {cl_host::in(thin), cl_host::scalar(width), cl_host::scalar(low), cl_host::scalar(high)},
      {thin.extent(0)}, {thin.extent(0)}, out);
  return out;
}

}  // namespace canny
