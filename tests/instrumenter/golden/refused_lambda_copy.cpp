#include "ops.hpp"

int main() {
  Vec v = {1, 2};
  auto f = [v] { return ops::sum(v); };
  return static_cast<int>(f());
}
