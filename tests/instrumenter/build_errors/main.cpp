#include <cstdio>

#include "app.hpp"

int main() {
  cei::Vector<float> x(4);
  app::scale(x, 2.0f);
  std::printf("%g\n", static_cast<double>(x(0)));
}
