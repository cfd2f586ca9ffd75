// Platforms that compute on the host's own cores compete for them: the CPU platform's workers and
// an OpenCL CPU device (PoCL; `host_cores = N` in its [platforms.*] table) run on the same cores,
// and neither sees the other's queue in its own. Each joins the process-wide HostCores with a
// function giving the core-seconds it holds (queued and running, for tasks like the one being
// forecast); a forecast on any of them then cannot end before the whole backlog, spread over the
// host's cores, plus its own work is done (the fluid bound).
//
// A member's measured times are taken beside the others' work: a PoCL kernel timed while the CPU
// platform's single worker kept running shared the two cores with it (two PoCL threads and one
// worker: two thirds of them), it did not have both. So a member is charged, per second of its
// tasks, its share of the cores beside the others (`cores_beside`), not all it could use alone:
// charged at both, PoCL looked too costly and DynPerf gave it 13-14 of 64 Bezier blocks where the
// best split gave 17-22 (1.09-1.12x its time); charged at one core it got 23-27 (up to 1.19x at
// 16 blocks). When the others leave no core, it is charged every core it runs on: those are taken
// from their work (with 2 CPU workers on 2 cores, any PoCL block costs time).
//
//   auto backlog = [&](const Task& t) { return waiting(t) * predicted_s(t) * 1; };
//   host_cores().join(&cpu, backlog, workers);
//   double held = host_cores().cores_beside(&device, compute_units);
//   in.min_end_s = host_cores().fluid_end_s(rt.now_s(), t, exec_s * held);
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

  // A platform computing on these cores, keeping at most `cores_used` of them busy (a CPU
  // platform: its workers); joining twice replaces its function.
  void join(const Platform* p, Backlog backlog, double cores_used);
  bool has(const Platform* p) const;
  double cores() const { return cores_; }

  // Core-seconds held by every platform that joined, as each predicts them for tasks like t.
  double backlog_core_s(const Task& t) const;
  // now + (backlog + work) / cores: the earliest a task needing `work_core_s` can end when the
  // cores go to whoever has work. Equals now_s when nothing joined.
  double fluid_end_s(double now_s, const Task& t, double work_core_s) const;
  // The cores p's tasks are charged for while every other member keeps the cores it uses busy:
  // p's even share of the cores among the threads (wanted x cores / (wanted + others' cores)), at
  // most `wanted`; `wanted` when the others leave no core free.
  double cores_beside(const Platform* p, double wanted) const;

 private:
  double cores_;
  mutable std::mutex mu_;
  struct Member {
    const Platform* platform;
    Backlog backlog;
    double cores_used;
  };
  std::vector<Member> members_;
};

// The cores this process may run on (its CPU affinity mask, as taskset or a container's cpuset
// leave it), at least 1. std::thread::hardware_concurrency counts the machine's, which over-offers
// the host's platforms when the process is confined to fewer.
unsigned usable_cores();

// The process's usable cores, shared by the platforms of the process.
HostCores& host_cores();

}  // namespace cei::rt
