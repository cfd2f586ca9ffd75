// A callback writes d through a task; the function that calls it then reads d by reference.
#include "ces.hpp"
#include "digest.hpp"
#include <cstdio>
#include <functional>
void run(const std::function<void()>& f, const DVec& b) {
  f();
  std::printf("run %g\n", b[0]);
}
template <class F>
void run2(F f, const DVec& b) {
  f();
  std::printf("run2 %g\n", b[0]);
}
int main() {
  DVec d{1, 2, 3};
  run([&] { fz::vbump(d, 1.0); }, d);
  run2([&] { fz::vbump(d, 1.0); }, d);
  std::printf("main %g\n", d[0]);
  return 0;
}
