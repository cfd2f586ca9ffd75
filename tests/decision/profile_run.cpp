// A program that shares its profile with another run: its runtime loads CEI_PROFILE when it
// starts, it records one run of SortCEI.sort taking argv[1] seconds, says "loaded" and waits for a
// line on stdin, so that a test can hold two such runs between their load and their save; the
// runtime saves the profile when it exits.
#include "scripted.hpp"

#include <cei/rt/runtime.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s SECONDS\n", argv[0]);
    return 2;
  }
  cei::rt::Runtime::instance().profiles()->record(cei::rt::test::kSort, 0, "cpu", 100,
                                                  std::atof(argv[1]));
  std::cout << "loaded" << std::endl;
  std::string go;
  std::getline(std::cin, go);
  return 0;
}
