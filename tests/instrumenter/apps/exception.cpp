// An exception thrown inside a CE reaches the program at its next sync on the CE's output.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "ops.hpp"

int main() {
  long ok = ops::checked_div(10, 2);
  std::printf("ok=%ld\n", ok);
  try {
    long bad = ops::checked_div(1, 0);
    std::printf("bad=%ld\n", bad);
  } catch (const std::exception& e) {
    bool named = std::string(e.what()).find("division by zero") != std::string::npos;
    std::printf("caught: %s\n", named ? "division by zero" : e.what());
  }
  long after = ops::checked_div(9, 3);
  std::printf("after=%ld\n", after);
  return 0;
}
