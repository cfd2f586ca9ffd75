#include "guard.hpp"

namespace guard {

void spend(cei::Vector<int>& v) {
  v(0) -= 1;
  for (std::size_t i = 1; i < v.size(); ++i) v(i) += 1;
}

}  // namespace guard
