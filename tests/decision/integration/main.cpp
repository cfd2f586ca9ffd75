// The runtime starts once per process and reads its launch config then: the platforms of the
// program's config (CEI_INTEGRATION_CONFIG: platforms.toml or competing.toml, cpu and cl, nothing
// else), under DynPerf unless a test switches the policy.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("CEI_PLATFORMS", CEI_INTEGRATION_CONFIG, 1);
  unsetenv("CEI_POLICY");
  unsetenv("CEI_CPU_CORES");
  unsetenv("CEI_PROFILE");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
