// seqfuzz regression: the sequential program catches the CE's std::domain_error; the instrumented
// one got a cei::rt::TaskError (a std::runtime_error nesting it), which that handler missed, until
// the runtime rethrew the CE's own exception.
#include "ces.hpp"
#include "digest.hpp"

#include <stdexcept>

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  try {
    double e = fz::checked(a, 0.0);
    dig::begin("e");
    dig::put("e", e);
    dig::end();
  } catch (const std::domain_error& err) {
    std::printf("caught %s\n", err.what());
  }
  return 0;
}
