// The runtime starts once per process with the CPU platform's size fixed at start: these tests
// use 4 worker threads (more than the CI machine's cores, so concurrency is the runtime's own).
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("CEI_CPU_CORES", "4", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
