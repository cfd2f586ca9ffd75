#include <cei/rt/decision/host_cores.hpp>

#include <sched.h>

#include <algorithm>
#include <thread>

namespace cei::rt {

void HostCores::join(const Platform* p, Backlog backlog, double cores_used) {
  std::lock_guard g(mu_);
  for (auto& m : members_)
    if (m.platform == p) {
      m.backlog = std::move(backlog);
      m.cores_used = cores_used;
      return;
    }
  members_.push_back({p, std::move(backlog), cores_used});
}

bool HostCores::has(const Platform* p) const {
  std::lock_guard g(mu_);
  for (const auto& m : members_)
    if (m.platform == p) return true;
  return false;
}

double HostCores::backlog_core_s(const Task& t) const {
  std::vector<Backlog> each;
  {
    // Called outside the lock: a backlog may ask the profiles, which have locks of their own.
    std::lock_guard g(mu_);
    for (const auto& m : members_) each.push_back(m.backlog);
  }
  double sum = 0;
  for (const auto& b : each) sum += b(t);
  return sum;
}

double HostCores::cores_beside(const Platform* p, double wanted) const {
  double others = 0;
  {
    std::lock_guard g(mu_);
    for (const auto& m : members_)
      if (m.platform != p) others += m.cores_used;
  }
  // No core left by the others: every core p's kernels run on is taken from their work.
  if (others + 1 > cores_) return wanted;
  // Otherwise the scheduler shares the cores evenly among the threads that run: p's share.
  return std::min(wanted, wanted * cores_ / (wanted + others));
}

double HostCores::fluid_end_s(double now_s, const Task& t, double work_core_s) const {
  {
    std::lock_guard g(mu_);
    if (members_.empty()) return now_s;
  }
  return now_s + (backlog_core_s(t) + work_core_s) / cores_;
}

unsigned usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

HostCores& host_cores() {
  static HostCores cores(static_cast<double>(usable_cores()));
  return cores;
}

}  // namespace cei::rt
