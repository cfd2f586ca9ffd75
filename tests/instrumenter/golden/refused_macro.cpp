#include "ops.hpp"

#define TOTAL_PLUS_ONE(v) (ops::sum(v) + 1)

int main() {
  Vec v = {1, 2};
  return static_cast<int>(TOTAL_PLUS_ONE(v));
}
