// [[cei::requires]] (rows.cei.hpp: axpy's rows have c's length, since its kernel reads a and b at
// every index of c). Calls that keep to it print what the -seq twin prints, on every platform;
// with the argument "break", a call with a shorter row fails with a TaskError naming the CE, the
// condition and the extents it read, before anything runs, where the program observes the call,
// as a CE's own exception is seen.
#include <cstdio>
#include <exception>
#include <string>

#include "rows.hpp"

namespace {
void print(const char* what, const Row& r) {
  std::printf("%s:", what);
  for (float x : r) std::printf(" %g", x);
  std::printf("\n");
}
}  // namespace

int main(int argc, char** argv) {
  Row a = {1, 2, 3}, b = {4, 5, 6}, c = {0, 0, 0};
  vec::axpy(a, b, c);
  vec::axpy(a, a, c);
  print("c", c);
  if (argc > 1 && std::string(argv[1]) == "break") {
    Row shorter = {1};
    try {
      vec::axpy(shorter, b, c);
      print("not reached", c);
    } catch (const std::exception& e) {
      std::printf("caught: %s\n", e.what());
    }
  }
  Row d = {1, 1, 1};
  vec::axpy(a, b, d);
  print("d", d);
  return 0;
}
