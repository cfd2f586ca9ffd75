// The runtime starts once per process and reads its policy then: every task that opencl0 can run
// goes there; the rest (no OpenCL version, or a kernel that does not build) to the CPU platform.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("CEI_POLICY", "only:opencl0", 1);
  setenv("CEI_CPU_CORES", "2", 1);
  setenv("CEI_OPENCL_FAIL_KERNEL", "fails_at_run", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
