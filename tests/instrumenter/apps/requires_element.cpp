// [[cei::requires("par0[0] > 0")]] (guard.cei.hpp) reads an element of a value that, under
// only:opencl0, the previous step left on the device only: the runtime brings it to the host
// before placing the task. Two steps print what the -seq twin prints; with the argument "break",
// a third one fails with a TaskError naming the element's value, and nothing runs.
#include <cstdio>
#include <exception>
#include <string>

#include "guard.hpp"

int main(int argc, char** argv) {
  cei::Vector<int> v(3);
  v(0) = 2;
  guard::spend(v);
  guard::spend(v);
  if (argc > 1 && std::string(argv[1]) == "break") {
    try {
      guard::spend(v);
      std::printf("not reached\n");
    } catch (const std::exception& e) {
      std::printf("caught: %s\n", e.what());
    }
  } else {
    std::printf("v: %d %d %d\n", v(0), v(1), v(2));
  }
  return 0;
}
