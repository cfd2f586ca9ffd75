// Diagnostics suite: every malformed CEI header in tests/cei/diag/ yields exactly the expected
// `file:line:col: error: message` lines (text, line and column).
#include <gtest/gtest.h>
#include <cei/frontend.hpp>

#include <filesystem>

namespace {

namespace fs = std::filesystem;

struct Case {
  const char* header;              // in tests/cei/diag/, without ".cei.hpp"
  std::vector<std::string> lines;  // after "<header>.cei.hpp:"
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << c.header;
}

const std::vector<Case> kCases = {
#include "diag_cases.inc"
};

class Diag : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    saved_ = fs::current_path();
    fs::current_path(fs::path(CEI_TEST_DIR) / "diag");
  }
  void TearDown() override { fs::current_path(saved_); }
  fs::path saved_;
};

TEST_P(Diag, ReportsTheMistakeWhereItIs) {
  const Case& c = GetParam();
  const std::string file = std::string(c.header) + ".cei.hpp";
  cei::frontend::Diagnostics diags;
  cei::frontend::parse_cei(file, {}, diags);
  std::vector<std::string> expected;
  for (const auto& l : c.lines) expected.push_back(l.empty() ? l : file + ":" + l);
  EXPECT_TRUE(diags.has_errors());
  EXPECT_EQ(diags.error_count(), expected.size());
  EXPECT_EQ(diags.lines(), expected) << "actual:\n" << diags.text();
}

INSTANTIATE_TEST_SUITE_P(Cei, Diag, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.header); });

}  // namespace
