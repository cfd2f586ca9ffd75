// Plugs the OpenCL platforms into the runtime at start: every device ("opencl0", ...), or only
// those whose name contains CEI_OPENCL_DEVICE.
#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/runtime.hpp>

#include <cstdio>
#include <cstdlib>

namespace {
const bool registered = cei::rt::register_platform_factory("opencl", [](cei::rt::Runtime& rt) {
  const char* match = std::getenv("CEI_OPENCL_DEVICE");
  try {
    for (auto& p : cei::opencl::make_platforms(match ? match : "", cei::opencl::Options::from_env()))
      rt.add_platform(std::move(p));
  } catch (const std::exception& e) {
    // A broken driver must not take the CPU platform down with it.
    std::fprintf(stderr, "cei: OpenCL platforms disabled: %s\n", e.what());
  }
});
}  // namespace
