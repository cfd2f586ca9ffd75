// Kernel programs for one device: each kernel source built once per context, the binary kept on
// disk across runs (keyed by source, device, driver and build options; each entry checked for
// size, checksum and that key before the driver sees it), the build log shown with
// the kernel file's name when the build fails.
#pragma once

#include "cl.hpp"

#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/ce.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace cei::opencl {

class Programs {
 public:
  Programs(cl_context ctx, cl_device_id dev, const DeviceInfo& info, std::string cache_dir,
           std::string build_options);

  struct Built {
    Kernel kernel;    // null when the build failed
    std::string log;  // build log, file names rewritten to the kernel file's path
  };
  // Thread-safe; the first call for a CE builds (slow), later calls return the cached result.
  // `cl`: ce.opencl, or ce.opencl_approximate for a task that runs the approximation.
  const Built& kernel_for(const rt::CeInfo& ce, const rt::OpenCLImpl& cl);

  std::uint64_t disk_hits() const { return disk_hits_; }

 private:
  Program build(const rt::OpenCLImpl& cl, std::string& log);
  // `key`: the device, driver, build options and source the entry must have been made for.
  // A missing, truncated, corrupt or foreign entry is removed with a warning: nullptr.
  Program load_binary(const std::string& path, const std::string& key);
  void save_binary(cl_program p, const std::string& path, const std::string& key);

  cl_context ctx_;
  cl_device_id dev_;
  std::string key_prefix_;
  std::string cache_dir_;
  std::string options_;
  std::mutex mu_;
  std::map<const rt::OpenCLImpl*, Built> kernels_;
  std::map<std::string, Program> by_source_;
  std::map<std::string, std::string> failed_;  // source -> log
  std::uint64_t disk_hits_ = 0;
};

// The default cache directory: $XDG_CACHE_HOME/cei/opencl or ~/.cache/cei/opencl.
std::string default_cache_dir();

}  // namespace cei::opencl
