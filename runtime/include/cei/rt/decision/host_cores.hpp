// Platforms that compute on the host's own cores compete for them: the CPU platform's workers and
// an OpenCL CPU device (PoCL; `host_cores = N` in its [platforms.*] table) run on the same cores,
// and neither sees the other's queue in its own. Each joins the process-wide HostCores with a
// function giving the core-seconds it holds (queued and running, for tasks like the one being
// forecast); a forecast on any of them then cannot end before the whole backlog, spread over the
// host's cores, plus its own work is done (the fluid bound).
//
//   host_cores().join(&platform, [&](const Task& t) { return waiting(t) * predicted_s(t) * 1; });
//   in.min_end_s = host_cores().fluid_end_s(rt.now_s(), t, exec_s * cores_per_task);
#pragma once

#include <cei/rt/platform.hpp>

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace cei::rt {

class HostCores {
 public:
  using Backlog = std::function<double(const Task&)>;  // core-seconds held
  explicit HostCores(double cores) : cores_(cores > 0 ? cores : 1) {}

  // A platform computing on these cores; joining twice replaces its function.
  void join(const Platform* p, Backlog backlog);
  bool has(const Platform* p) const;
  double cores() const { return cores_; }

  // Core-seconds held by every platform that joined, as each predicts them for tasks like t.
  double backlog_core_s(const Task& t) const;
  // now + (backlog + work) / cores: the earliest a task needing `work_core_s` can end when the
  // cores go to whoever has work. Equals now_s when nothing joined.
  double fluid_end_s(double now_s, const Task& t, double work_core_s) const;

 private:
  double cores_;
  mutable std::mutex mu_;
  std::vector<std::pair<const Platform*, Backlog>> members_;
};

// The cores this process may run on (its CPU affinity mask, as taskset or a container's cpuset
// leave it), at least 1. std::thread::hardware_concurrency counts the machine's, which over-offers
// the host's platforms when the process is confined to fewer.
unsigned usable_cores();

// The process's usable cores, shared by the platforms of the process.
HostCores& host_cores();

}  // namespace cei::rt
