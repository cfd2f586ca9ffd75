// digits' Core Elements as hand-written synchronous OpenCL (see cl_host.hpp), linked with the
// example's unchanged main.cpp in place of its layers in digits.cpp.
#include "cl_host.hpp"
#include "digits.hpp"

namespace digits {

cei::Array<float, 3> conv(const cei::Array<float, 3>& input, const cei::Vector<float>& weights,
                          int in_channels, int out_channels) {
  const auto oc = static_cast<std::size_t>(out_channels);
  cei::Array<float, 3> out(input.extent(0), oc, input.extent(2));
  cl_host::run("conv",
               {cl_host::in(input), cl_host::in(weights), cl_host::scalar(in_channels),
                cl_host::scalar(out_channels)},
               {input.extent(0), oc, input.extent(2)}, {}, out);
  return out;
}

cei::Array<float, 3> relu(const cei::Array<float, 3>& x) {
  cei::Array<float, 3> out(x.extents());
  cl_host::run("relu", {cl_host::in(x)}, {x.size()}, {}, out);
  return out;
}

cei::Array<float, 3> pool(const cei::Array<float, 3>& x) {
  cei::Array<float, 3> out(x.extent(0), x.extent(1), x.extent(2) / 4);
  cl_host::run("pool", {cl_host::in(x)}, {x.extent(0), x.extent(1), x.extent(2) / 4}, {}, out);
  return out;
}

cei::Matrix<float> dense(const cei::Array<float, 3>& x, const cei::Vector<float>& weights,
                         int inputs, int outputs) {
  const auto o = static_cast<std::size_t>(outputs);
  cei::Matrix<float> out(x.extent(0), o);
  cl_host::run(
      "dense",
      {cl_host::in(x), cl_host::in(weights), cl_host::scalar(inputs), cl_host::scalar(outputs)},
      {x.extent(0), o}, {}, out);
  return out;
}

cei::Vector<int> classify(const cei::Matrix<float>& scores, int classes) {
  cei::Vector<int> out(scores.extent(0));
  cl_host::run("classify", {cl_host::in(scores), cl_host::scalar(classes)}, {scores.extent(0)}, {},
               out);
  return out;
}

}  // namespace digits
