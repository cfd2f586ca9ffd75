// FUZZ_CHECK: an invariant of the code under test. A failed one aborts, which libFuzzer reports as
// a crash and saves the input, and which the corpus replay under ctest reports as a failed test.
//
//   FUZZ_CHECK(list.dims.size() <= 3, "parse returned more than 3 dimensions");
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond, what)                                                                     \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "%s:%d: invariant broken: %s (%s)\n", __FILE__, __LINE__, what, #cond); \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)
