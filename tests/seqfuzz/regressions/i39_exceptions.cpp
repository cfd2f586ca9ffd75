// Exceptions: a throwing CE in a callee, then the callee's own throw; a CE with no outputs that
// throws stops the next CE of its callee.
#include "ces.hpp"
#include "digest.hpp"
#include <cstdio>
#include <stdexcept>
struct Checker {
  DVec v{1, 2, 3};
};
double g_out = 0;
void thrower(const DVec& v) {
  double r = fz::checked(v, 0.0);
  (void)r;
  throw std::runtime_error("callee");
}
void callee_stops(DVec& w) {
  fz::checked(w, 0.0);
  fz::vbump(w, 5.0);
}
int main() {
  DVec v{1, 2, 3};
  try {
    thrower(v);
  } catch (const std::domain_error&) {
    std::printf("domain\n");
  } catch (const std::runtime_error&) {
    std::printf("runtime\n");
  }
  DVec w{1, 2, 3};
  try {
    callee_stops(w);
  } catch (const std::domain_error&) {
    std::printf("stopped\n");
  }
  std::printf("%g\n", w[0]);
  return 0;
}
