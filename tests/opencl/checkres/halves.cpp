#include "halves.hpp"

namespace halves {

namespace {
cei::Vector<float> twice(const cei::Vector<float>& a) {
  cei::Vector<float> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r(i) = 2 * a(i);
  return r;
}
}  // namespace

cei::Vector<float> full(const cei::Vector<float>& a) {
  return twice(a);
}

// The native version is right: only the kernel's work size is wrong.
cei::Vector<float> half(const cei::Vector<float>& a) {
  return twice(a);
}

}  // namespace halves
