// Runs the real cei-trace binary on the trace of the known run and checks the PNG it writes.
#include <cei/rt/trace/chrome_trace.hpp>

#include "known_run.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <sys/wait.h>

namespace cei::rt::trace {
namespace {

namespace fs = std::filesystem;

struct PngSize {
  std::uint32_t width = 0, height = 0;
};

// The width and height from a PNG's IHDR chunk (bytes 16..23, big-endian).
PngSize png_size(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::array<unsigned char, 24> h{};
  in.read(reinterpret_cast<char*>(h.data()), h.size());
  if (!in || h[1] != 'P' || h[2] != 'N' || h[3] != 'G') return {};
  auto be = [&](int o) {
    return std::uint32_t{h[o]} << 24 | std::uint32_t{h[o + 1]} << 16 |
           std::uint32_t{h[o + 2]} << 8 | h[o + 3];
  };
  return {be(16), be(20)};
}

class CeiTraceTool : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cei-trace-tool-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
    test::KnownRun run;
    Recorder rec(run.origin);
    rec.on_finish([&](const RunRecord& r) {
      std::ofstream out(dir_ / "trace.json");
      write_chrome_trace(r, out);
    });
    run.play(rec);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The tool's exit status (-1 if it did not exit).
  int tool(const std::string& args) {
    const std::string cmd =
        std::string(CEI_TRACE_TOOL) + " " + args + " > " + (dir_ / "out.txt").string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string output() const {
    std::ifstream in(dir_ / "out.txt");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  fs::path dir_;
};

TEST_F(CeiTraceTool, WritesAPngOfTheRequestedSize) {
  const fs::path png = dir_ / "timeline.png";
  ASSERT_EQ(
      tool((dir_ / "trace.json").string() + " -o " + png.string() + " --width 1000 --height 420"),
      0);
  const PngSize s = png_size(png);
  EXPECT_EQ(s.width, 1000u);
  EXPECT_EQ(s.height, 420u);
}

TEST_F(CeiTraceTool, FitsTheHeightToTheLanes) {
  const fs::path png = dir_ / "timeline.png";
  ASSERT_EQ(tool((dir_ / "trace.json").string() + " -o " + png.string()), 0);
  const PngSize s = png_size(png);
  EXPECT_EQ(s.width, 1600u);
  // Five lanes (two CPU workers, a device queue, two transfer tracks) of 26 px, plus the title,
  // the axis and one legend row.
  EXPECT_GE(s.height, 5u * 26u + 34u + 34u + 22u);
  EXPECT_LE(s.height, 5u * 26u + 34u + 34u + 22u + 40u);
}

TEST_F(CeiTraceTool, RefusesAFileThatIsNotATraceWithStatus2) {
  std::ofstream(dir_ / "bad.json") << R"({"hello": 1})";
  EXPECT_EQ(tool((dir_ / "bad.json").string() + " -o " + (dir_ / "bad.png").string()), 2);
  EXPECT_NE(output().find("bad.json"), std::string::npos) << output();
  EXPECT_FALSE(fs::exists(dir_ / "bad.png"));
}

TEST_F(CeiTraceTool, RefusesABadOptionAndAnUnwritableImageWithStatus2) {
  EXPECT_EQ(tool((dir_ / "trace.json").string() + " --widht 10"), 2);
  EXPECT_NE(output().find("--widht"), std::string::npos) << output();
  EXPECT_EQ(tool((dir_ / "trace.json").string() + " -o " + (dir_ / "no-such/t.png").string()), 2);
  EXPECT_NE(output().find("cannot write"), std::string::npos) << output();
  EXPECT_EQ(tool("--help"), 0);
}

// A size the image cannot have is refused naming the option, not drawn at another size.
TEST_F(CeiTraceTool, RefusesASizeOutOfRangeWithStatus2) {
  const fs::path png = dir_ / "timeline.png";
  for (const char* size : {"--width -5", "--width 100", "--height -1", "--width 100000"}) {
    EXPECT_EQ(tool((dir_ / "trace.json").string() + " -o " + png.string() + " " + size), 2)
        << size;
    EXPECT_NE(output().find(std::string(size).substr(0, 7)), std::string::npos) << output();
    EXPECT_FALSE(fs::exists(png)) << size;
  }
}

}  // namespace
}  // namespace cei::rt::trace
