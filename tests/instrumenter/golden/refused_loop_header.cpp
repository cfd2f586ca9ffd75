#include "ops.hpp"

int main() {
  long s = 0;
  for (Vec v = {1, 2}; s < 10;) s = ops::sum(v) + s;
  return static_cast<int>(s);
}
