#include <cei/rt/trace/log.hpp>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>

namespace cei::rt {
namespace {

std::shared_ptr<spdlog::logger> make_logger() {
  // Another part may have created it first (spdlog's registry is process-wide).
  if (auto existing = spdlog::get("cei")) return existing;
  auto logger = spdlog::stderr_color_mt("cei");
  logger->set_pattern("[cei %^%l%$] %v");
  const char* level = std::getenv("CEI_LOG");
  // from_str maps unknown names to off; a typo should not silence warnings.
  auto parsed = level ? spdlog::level::from_str(level) : spdlog::level::warn;
  if (parsed == spdlog::level::off && level && std::string_view(level) != "off")
    parsed = spdlog::level::warn;
  logger->set_level(parsed);
  return logger;
}

}  // namespace

spdlog::logger& log() {
  static const std::shared_ptr<spdlog::logger> logger = make_logger();
  return *logger;
}

}  // namespace cei::rt
