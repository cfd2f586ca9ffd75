// The runtime's logger: spdlog's "cei" logger on stderr, its level from CEI_LOG
// (off|error|warn|info|debug|trace; warn when unset). Any part of CEI may use it:
//
//   cei::rt::log().info("opencl0: built {} kernels in {:.1f} ms", n, ms);
//   // or, without this header: if (auto l = spdlog::get("cei")) l->debug(...);
#pragma once

#include <spdlog/logger.h>

namespace cei::rt {

spdlog::logger& log();

}  // namespace cei::rt
