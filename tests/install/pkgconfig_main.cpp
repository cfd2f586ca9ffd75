// Built with `c++ $(pkg-config --cflags --libs cei)` against an installed CEI (install_app.cmake):
// CEI's headers and its runtime library, found through cei.pc alone.
#include <cei/cei.hpp>
#include <cei/rt/ce.hpp>

#include <cstdio>

int main() {
  cei::Matrix<int> m(2, 3);
  cei::barrier();
  std::printf("%zu elements, %zu CEs\n", m.size(), cei::rt::registered_ces().size());
  return m.size() == 6 ? 0 : 1;
}
