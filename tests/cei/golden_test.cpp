// Golden tests: each tests/cei/golden/<case>/<case>.cei.hpp parses without diagnostics into the
// model stored in <case>/expected.json. CEI_UPDATE_GOLDEN=1 rewrites the expected files.
#include <gtest/gtest.h>
#include <cei/frontend.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

namespace fs = std::filesystem;

// Runs in the case's folder so that paths in the model are as a user in that folder would see.
class Golden : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    saved_ = fs::current_path();
    fs::current_path(fs::path(CEI_TEST_DIR) / "golden" / GetParam());
  }
  void TearDown() override { fs::current_path(saved_); }
  fs::path saved_;
};

TEST_P(Golden, ModelMatchesExpectedJson) {
  cei::frontend::Diagnostics diags;
  const auto model = cei::frontend::parse_cei(GetParam() + ".cei.hpp", {}, diags);
  ASSERT_FALSE(diags.has_errors()) << diags.text();
  EXPECT_TRUE(diags.lines().empty()) << diags.text();
  const std::string actual = cei::model::to_json(model);
  if (std::getenv("CEI_UPDATE_GOLDEN")) std::ofstream("expected.json") << actual << "\n";
  std::ifstream in("expected.json");
  ASSERT_TRUE(in) << "missing expected.json for " << GetParam();
  const auto expected = nlohmann::json::parse(in);
  EXPECT_EQ(nlohmann::json::parse(actual), expected) << "actual:\n"
                                                     << actual << "\nexpected:\n"
                                                     << expected.dump(2);
}

INSTANTIATE_TEST_SUITE_P(Cei, Golden,
                         ::testing::Values("matmul", "sort", "sim", "bezier", "canny", "approx"),
                         [](const auto& info) { return info.param; });

// The same model whatever form the header's path takes: kernel paths follow it.
TEST(GoldenPaths, KernelPathIsResolvedAgainstTheHeadersFolder) {
  const fs::path dir = fs::path(CEI_TEST_DIR) / "golden" / "bezier";
  cei::frontend::Diagnostics diags;
  const auto model = cei::frontend::parse_cei((dir / "bezier.cei.hpp").string(), {}, diags);
  ASSERT_FALSE(diags.has_errors()) << diags.text();
  ASSERT_EQ(model.ces.size(), 2u);
  ASSERT_TRUE(model.ces[0].opencl);
  EXPECT_EQ(model.ces[0].opencl->kernel_path, (dir / "kernels" / "bezier.cl").string());
  EXPECT_EQ(model.ces[0].loc.file, (dir / "bezier.cei.hpp").string());
}

// Compiler arguments reach clang.
TEST(GoldenPaths, CompilerArgumentsAreUsed) {
  const fs::path dir = fs::path(CEI_TEST_DIR) / "golden" / "matmul";
  cei::frontend::Diagnostics diags;
  cei::frontend::parse_cei((dir / "matmul.cei.hpp").string(),
                           {"-include", "this_header_does_not_exist.h"}, diags);
  ASSERT_TRUE(diags.has_errors());
  EXPECT_NE(diags.text().find("this_header_does_not_exist.h' file not found"), std::string::npos)
      << diags.text();
}

}  // namespace
