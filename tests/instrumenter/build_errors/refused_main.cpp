#include <cstdio>

#include "app.hpp"

int main() {
  cei::Vector<float> x(4);
  cei::Vector<float>* p = &x;
  app::scale(*p, 2.0f);
  std::printf("%g\n", static_cast<double>(x(0)));
}
