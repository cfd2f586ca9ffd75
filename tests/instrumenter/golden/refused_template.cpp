#include "ops.hpp"

template <typename T>
long total(const T& v) {
  return ops::sum(v);
}

int main() { return static_cast<int>(total(Vec{1, 2})); }
