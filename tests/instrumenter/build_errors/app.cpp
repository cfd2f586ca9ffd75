#include "app.hpp"

namespace app {
void scale(cei::Vector<float>& x, float alpha) {
  for (std::size_t i = 0; i < x.size(); ++i) x(i) *= alpha;
}
}  // namespace app
