// cei-scale-client: the program of the scale test (scale_test.cpp, bench/remote/scale.sh). Runs
// TASKS tiny tasks (inc: x + 1) as CHAINS independent chains, x[c] = inc(x[c]) round after round,
// on the nodes its platform config names, and reports what the process used meanwhile: its peak
// thread count (/proc/self/status Threads) and peak open sockets (/proc/self/fd), both sampled
// every 5 ms by a thread of its own (counted), and its peak resident memory (VmHWM). The
// program waits for its chains every WINDOW tasks (0: never, every task is submitted at once),
// as a program that reads its results as it goes does.
//
//   cei-scale-client TASKS CHAINS WINDOW
//   -> "scale: tasks=T nodes=N seconds=S peak_threads=P peak_sockets=K vmhwm_kib=M"
//   exit status 0: every chain's value right
#include "test_app.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rt = cei::rt;

namespace {

// A field of /proc/self/status ("Threads:", "VmHWM:"), as a number; -1 when absent.
long status_field(const char* name) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::size_t n = std::strlen(name);
  while (std::getline(in, line))
    if (line.compare(0, n, name) == 0) return std::atol(line.c_str() + n);
  return -1;
}

long open_sockets() {
  long sockets = 0;
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  char target[64];
  while (dirent* e = readdir(dir)) {
    const std::string link = std::string("/proc/self/fd/") + e->d_name;
    const ssize_t len = readlink(link.c_str(), target, sizeof target - 1);
    if (len > 0 && std::strncmp(target, "socket:", 7) == 0) ++sockets;
  }
  closedir(dir);
  return sockets;
}

// Samples the thread and socket counts until stopped; keeps the peaks.
class Sampler {
 public:
  Sampler() : thread_([this] { loop(); }) {}
  ~Sampler() { stop(); }
  void stop() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  long threads = 0, sockets = 0;

 private:
  void loop() {
    std::unique_lock lock(mu_);
    do {
      threads = std::max(threads, status_field("Threads:"));
      sockets = std::max(sockets, open_sockets());
    } while (!cv_.wait_for(lock, std::chrono::milliseconds(5), [&] { return stop_; }));
  }
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::atol(argv[1]) <= 0 || std::atol(argv[2]) <= 0 || std::atol(argv[3]) < 0) {
    std::fprintf(stderr, "usage: cei-scale-client TASKS CHAINS WINDOW\n");
    return 2;
  }
  const long tasks = std::atol(argv[1]), window = std::atol(argv[3]);
  const auto chains = static_cast<std::size_t>(std::atol(argv[2]));
  Sampler sampler;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<int> x(chains, 0);
  for (long t = 0; t < tasks; ++t) {
    int& v = x[static_cast<std::size_t>(t) % chains];
    rt::assign(v, rt::call<int>(remote_test::ce_inc, rt::in<int>(v)));
    if (window > 0 && (t + 1) % window == 0) cei::barrier();
  }
  long wrong = 0;
  for (std::size_t c = 0; c < chains; ++c) {
    const long expected = tasks / static_cast<long>(chains) +
                          (static_cast<long>(c) < tasks % static_cast<long>(chains) ? 1 : 0);
    if (rt::sync_read(x[c]) != expected) ++wrong;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t nodes = 0;
  rt::Runtime::instance().wait_for_platforms();
  for (const auto& p : rt::Runtime::instance().platforms())
    if (std::strcmp(p->kind(), "remote") == 0) ++nodes;
  sampler.stop();
  std::printf(
      "scale: tasks=%ld nodes=%zu seconds=%.1f peak_threads=%ld peak_sockets=%ld "
      "vmhwm_kib=%ld wrong=%ld\n",
      tasks, nodes, seconds, sampler.threads, sampler.sockets, status_field("VmHWM:"), wrong);
  return wrong == 0 ? 0 : 1;
}
