// [*this] copies the object after a task wrote its member.
#include "ces.hpp"
#include "digest.hpp"
#include <cstdio>
struct Box {
  DVec d{1, 2, 3};
  double go() {
    fz::vbump(d, 5.0);
    auto f = [*this] { return d[0]; };
    return f();
  }
};
int main() {
  Box b;
  std::printf("%g\n", b.go());
  return 0;
}
