// A local's destructor reads a member that a task wrote.
#include "ces.hpp"
#include "digest.hpp"
#include <cstdio>
struct Holder {
  DVec d = DVec{1, 2, 3};
  ~Holder() { std::printf("dtor %g\n", d[0]); }
};
int main() {
  {
    Holder h;
    fz::vbump(h.d, 2.0);
  }
  std::printf("done\n");
  return 0;
}
