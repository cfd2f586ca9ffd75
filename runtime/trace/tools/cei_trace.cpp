// cei-trace: draws a CEI trace (CEI_TRACE=trace.json) as a Gantt chart.
//
//   cei-trace trace.json -o timeline.png [--width 1600] [--height 0] [--title "canny, dynperf"]
#include "timeline_model.hpp"
#include "timeline_render.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>

int main(int argc, char** argv) {
  CLI::App app{"Draws a CEI trace (CEI_TRACE=trace.json) as a timeline PNG"};
  std::string input, output = "timeline.png";
  cei::trace_tool::RenderOptions opt;
  app.add_option("trace", input, "Chrome trace JSON written by CEI_TRACE")->required();
  app.add_option("-o,--output", output, "PNG to write")->capture_default_str();
  // Cairo's largest image side; narrower than 400 px leaves no room for the lane names.
  app.add_option("--width", opt.width, "image width in pixels")
      ->capture_default_str()
      ->check(CLI::Range(400, 32767));
  app.add_option("--height", opt.height, "image height in pixels (0: fit the lanes)")
      ->check(CLI::Range(0, 32767));
  app.add_option("--title", opt.title, "title (default: the trace's file name)");
  app.set_version_flag("--version", "cei-trace (CEI) " CEI_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a bad option or value exits 2 after naming it.
    return app.exit(e) == 0 ? 0 : 2;
  }

  try {
    std::ifstream in(input);
    if (!in) throw std::runtime_error("cannot open " + input);
    const auto tl = cei::trace_tool::load_timeline(nlohmann::json::parse(in));
    if (opt.title.empty()) opt.title = std::filesystem::path(input).filename().string();
    const auto size = cei::trace_tool::render_png(tl, opt, output);
    fmt::print("{}: {}x{}, {} lanes, {} tasks\n", output, size.width, size.height, tl.lanes.size(),
               tl.tasks);
  } catch (const std::exception& e) {
    fmt::print(stderr, "cei-trace: {}: {}\n", input, e.what());
    return 2;
  }
}
