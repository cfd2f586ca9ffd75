// seqfuzz regression (issue 16): out and inout arguments through a pointer (*p) are not tracked.
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  DVec b{2, 6, 5, 3, 5, 8};
  std::vector<double> sc{8, 6, 7, 5, 3, 0};
  DVec* pv = &b;
  double* ps = &sc[1];
  fz::vbump(*pv, 1.0);
  fz::sget(*ps, a, 2);
  dig::begin("end"); dig::put("b", b); dig::put("sc", sc); dig::end();
  return 0;
}
