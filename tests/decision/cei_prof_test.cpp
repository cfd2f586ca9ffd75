// Runs the real cei-prof on a profile written by ProfileStore and checks its report and plots.
#include "scripted.hpp"

#include <cei/rt/decision/profile_store.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>

namespace cei::rt::test {
namespace {

std::string run(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  std::array<char, 512> buf;
  while (p && std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  *status = p ? pclose(p) : -1;
  return out;
}

// One size tells a time, not how it grows: no slope is printed or drawn for it (a CE of scalars
// alone, whose inputs weigh 0 bytes, printed "t = 2.95e-07 + 0*size").
TEST(CeiProf, FitsNoModelOverASingleSize) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cei-prof-one-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ProfileStore store;
  for (int i = 0; i < 3; ++i) {
    store.record(kMultiply, 0, "cpu", 0, 2.95e-7);
    store.record(kMultiply, -1, "opencl0", 4096, 1e-4);
  }
  store.save((dir / "profile.json").string());
  int status = 0;
  const std::string out = run(std::string(CEI_PROF_EXE) + " " + (dir / "profile.json").string() +
                                  " -o " + (dir / "plots").string(),
                              &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("on cpu: 1 size, 3 runs, one size measured: no model over sizes"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("on opencl0: 1 size, 3 runs, one size measured"), std::string::npos) << out;
  EXPECT_EQ(out.find("*size"), std::string::npos) << out;
  fs::remove_all(dir);
}

TEST(CeiProf, PrintsModelsAndPlotsOnePngPerVersion) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cei-prof-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ProfileStore store;
  for (double n : {64.0, 128.0, 256.0, 512.0}) {
    const double bytes = 2 * 4 * n * n;  // two n x n float matrices
    store.record(kMultiply, 0, "cpu", bytes, 2e-9 * n * n * n);
    store.record(kMultiply, -1, "opencl0", bytes, 1e-4 + 1e-10 * bytes);
  }
  store.save((dir / "profile.json").string());

  int status = 0;
  const std::string out = run(std::string(CEI_PROF_EXE) + " " + (dir / "profile.json").string() +
                                  " -o " + (dir / "plots").string(),
                              &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("MatmulCEI.multiply [matmul] on cpu: 4 sizes, 4 runs, fit power"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("MatmulCEI.multiply [opencl] on opencl0: 4 sizes, 4 runs, fit linear"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("size^1.5000"), std::string::npos) << out;  // n^3 work on n^2 bytes
  for (const char* png : {"MatmulCEI.multiply-matmul.png", "MatmulCEI.multiply-opencl.png"}) {
    std::ifstream f(dir / "plots" / png, std::ios::binary);
    ASSERT_TRUE(f) << png << " missing\n" << out;
    char sig[8] = {};
    f.read(sig, 8);
    EXPECT_EQ(std::string(sig + 1, 3), "PNG") << png;
    EXPECT_GT(fs::file_size(dir / "plots" / png), 10'000u) << png;  // axes, points and curves
  }

  // Bad input: status 2, what was wrong named.
  EXPECT_NE(run(std::string(CEI_PROF_EXE) + " " + (dir / "missing.json").string(), &status)
                .find("cannot open profile"),
            std::string::npos);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
  std::ofstream(dir / "file") << "x";  // -o under a file: no folder can be made there
  const std::string unwritable = (dir / "file" / "plots").string();
  EXPECT_NE(
      run(std::string(CEI_PROF_EXE) + " " + (dir / "profile.json").string() + " -o " + unwritable,
          &status)
          .find("cei-prof: " + unwritable),
      std::string::npos);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
  EXPECT_NE(
      run(std::string(CEI_PROF_EXE) + " " + (dir / "profile.json").string() + " --bogus", &status)
          .find("--bogus"),
      std::string::npos);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cei::rt::test
