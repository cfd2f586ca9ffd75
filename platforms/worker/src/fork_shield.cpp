#include "fork_shield.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

namespace cei::worker::fork_shield {
namespace {

constexpr std::size_t kMinBytes = 1 << 20;  // smaller values cost a fork little

struct Range {
  std::uintptr_t begin = 0, end = 0;
};

// The whole pages inside [p, p + bytes): the pages at the edges may hold other data.
Range pages_within(const void* p, std::size_t bytes) {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  auto at = reinterpret_cast<std::uintptr_t>(p);
  Range r{(at + page - 1) / page * page, (at + bytes) / page * page};
  if (r.end < r.begin + kMinBytes) return {};
  return r;
}

void advise(Range r, int advice) {
  madvise(reinterpret_cast<void*>(r.begin), r.end - r.begin, advice);
}

std::mutex mu;
std::map<std::uintptr_t, std::pair<std::uintptr_t, int>> hidden;  // begin -> (end, count)

}  // namespace

void hide(const void* p, std::size_t bytes) {
  Range r = pages_within(p, bytes);
  if (r.begin == r.end) return;
  std::lock_guard lock(mu);
  auto [it, fresh] = hidden.try_emplace(r.begin, r.end, 0);
  if (fresh) advise(r, MADV_DONTFORK);
  ++it->second.second;
}

void show(const void* p, std::size_t bytes) {
  Range r = pages_within(p, bytes);
  if (r.begin == r.end) return;
  std::lock_guard lock(mu);
  auto it = hidden.find(r.begin);
  if (it == hidden.end() || --it->second.second > 0) return;
  advise(r, MADV_DOFORK);
  hidden.erase(it);
}

pid_t fork_with(std::span<const std::pair<const void*, std::size_t>> shown) {
  std::lock_guard lock(mu);
  std::vector<Range> lent;
  for (auto [p, bytes] : shown) {
    Range r = pages_within(p, bytes);
    if (r.begin == r.end || !hidden.contains(r.begin)) continue;
    advise(r, MADV_DOFORK);
    lent.push_back(r);
  }
  pid_t pid = fork();
  if (pid == 0) return pid;  // the child: the lock is the parent's business
  for (Range r : lent) advise(r, MADV_DONTFORK);
  return pid;
}

}  // namespace cei::worker::fork_shield
