// bezier's Core Element as hand-written synchronous OpenCL (see cl_host.hpp), linked with the
// example's unchanged main.cpp in place of bezier.cpp.
#include "bezier.hpp"
#include "cl_host.hpp"

namespace bezier {

cei::Matrix<float> patch(const cei::Matrix<float>& control, int side, int resolution, int row0,
                         int col0, int block) {
  cei::Matrix<float> out(block, block);
  const auto b = static_cast<std::size_t>(block);
  cl_host::run("patch",
               {cl_host::in(control), cl_host::scalar(side), cl_host::scalar(resolution),
                cl_host::scalar(row0), cl_host::scalar(col0), cl_host::scalar(block)},
               {b, b}, {}, out);
  return out;
}

}  // namespace bezier
