// The runtime starts while the program loads (ceic gives the translation unit that defines main a
// static initializer), so that devices open while the program prepares its data: its threads
// exist before main's first statement. The -seq program, not instrumented, has one thread then.
#include <cei/cei.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "ops.hpp"

namespace {
int threads() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  return -1;
}
}  // namespace

int main() {
  const int at_start = threads();
  long x = ops::busy(1, 1);
  cei::barrier();
  std::printf("threads at main's start: %s\nresult: %ld\n", at_start > 1 ? "several" : "one", x);
  return 0;
}
