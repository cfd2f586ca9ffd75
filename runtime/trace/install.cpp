#include <cei/rt/trace/chrome_trace.hpp>
#include <cei/rt/trace/log.hpp>
#include <cei/rt/trace/observers.hpp>
#include <cei/rt/trace/progress.hpp>
#include <cei/rt/trace/run_summary.hpp>
#include <cei/rt/trace/task_graph.hpp>

#include "decision_log.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <string_view>

namespace cei::rt {
namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// A value other than 1/on/true/yes or 0/off/false/no stopped the program at launch
// (cei::rt::env_flag, checked by config_from_env).
bool env_on(const char* name) {
  const std::string_view v = env(name) ? env(name) : "0";
  return v != "0" && v != "off" && v != "false" && v != "no";
}

template <typename Write>
trace::Recorder::Sink file_sink(std::string path, const char* what, Write write) {
  return [path = std::move(path), what, write](const trace::RunRecord& run) {
    std::ofstream out(path);
    if (out) write(run, out);
    if (!out)
      log().error("cannot write the {} to {}", what, path);
    else
      log().info("{} written to {}", what, path);
  };
}

}  // namespace

void install_observers_from_env() {
  auto recorder = std::make_shared<trace::Recorder>();
  bool recording = false;
  if (const char* path = env("CEI_TRACE")) {
    recorder->on_finish(file_sink(path, "trace", trace::write_chrome_trace));
    recording = true;
  }
  if (const char* path = env("CEI_GRAPH")) {
    recorder->on_finish(file_sink(path, "task graph", trace::write_dot));
    recording = true;
  }
  if (env_on("CEI_SUMMARY")) {
    recorder->on_finish([](const trace::RunRecord& run) {
      if (!run.tasks.empty()) fmt::print(stderr, "{}", trace::format_summary(run));
    });
    recording = true;
  }
  // Progress first: its last line then comes before the summary's table.
  if (env_on("CEI_PROGRESS")) add_observer(std::make_shared<trace::Progress>(stderr));
  if (recording) add_observer(recorder);
  if (log().should_log(spdlog::level::debug)) add_observer(std::make_shared<trace::DecisionLog>());
}

}  // namespace cei::rt
