// The client at scale: 16 worker nodes on 127.0.0.1 and many tiny tasks (cei-scale-client), the
// nodes the only platforms of the program (its platform config lists them and nothing else).
// Asserted: every result right, and the program's peak threads, open sockets and resident memory
// within the bounds docs/remote.md states ("Scale of the client"): the threads and sockets a
// bound per node, whatever the number of tasks; the memory a bound that the number of tasks does
// not move. Generous margins: this asserts boundedness, not timing.
// CEI_SCALE_TASKS=100000 runs the full count (bench/remote/scale.sh); the suite runs 20,000.
#include "client_process.hpp"
#include "worker_process.hpp"

#include <sched.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace remote_test {
namespace {

constexpr int kNodes = 16;
constexpr long kChains = 64;

long tasks() {
  const char* env = std::getenv("CEI_SCALE_TASKS");
  return env ? std::atol(env) : 20000;
}

// The nodes as the program's only platforms.
std::string config(const std::vector<std::unique_ptr<WorkerProcess>>& nodes) {
  std::string path = "/tmp/cei-scale-test-" + std::to_string(getpid()) + ".toml";
  std::ofstream out(path);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    out << "[platforms.n" << i + 1 << "]\ntype = \"remote\"\nurl = \"" << nodes[i]->url()
        << "\"\ntoken = \"" << nodes[i]->token() << "\"\n";
  return path;
}

struct Usage {
  long tasks = -1, nodes = -1, threads = -1, sockets = -1, vmhwm_kib = -1, wrong = -1;
  double seconds = -1;
};

// Runs the client with `window` (0: every task submitted at once); its report.
Usage run_client(const std::string& platforms, long n, long window) {
  ClientProcess client(
      {CEI_SCALE_CLIENT, std::to_string(n), std::to_string(kChains), std::to_string(window)},
      {"CEI_PLATFORMS=" + platforms, "CEI_POLICY=dynperf"}, std::chrono::minutes(10));
  EXPECT_EQ(client.status(), 0) << client.out() << client.err();
  Usage u;
  const auto at = client.out().find("scale: ");
  EXPECT_NE(at, std::string::npos) << client.out() << client.err();
  if (at == std::string::npos) return u;
  std::sscanf(client.out().c_str() + at,
              "scale: tasks=%ld nodes=%ld seconds=%lf peak_threads=%ld peak_sockets=%ld "
              "vmhwm_kib=%ld wrong=%ld",
              &u.tasks, &u.nodes, &u.seconds, &u.threads, &u.sockets, &u.vmhwm_kib, &u.wrong);
  std::printf("%s", client.out().c_str() + at);
  return u;
}

// docs/remote.md, "Scale of the client": per node, the remote platform's loop threads L (the
// node's workers, at least 2, at most 4 per core of the program: 2 for these 1-worker nodes), its
// health monitor and its fetch threads F (one per core, 2 to 8); besides them, the program's
// main thread and the client's sampler. Every request holds one connection of its node's
// clients: at most L + F + 1 (the health checks') sockets per node.
long cores() {
  cpu_set_t set;
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}
long fetchers() {
  return std::clamp(cores(), 2L, 8L);
}
long thread_bound(long nodes) {
  return nodes * (2 + 1 + fetchers()) + 2;
}
long socket_bound(long nodes) {
  return nodes * (2 + fetchers() + 1);
}

TEST(RemoteScale, SixteenNodesManyTinyTasksStayWithinTheStatedBounds) {
  std::vector<std::unique_ptr<WorkerProcess>> nodes;
  for (int i = 0; i < kNodes; ++i)
    nodes.push_back(std::make_unique<WorkerProcess>(
        std::vector<std::string>{"--executor", "direct", "--threads", "1"}));
  const std::string platforms = config(nodes);
  const long n = tasks();
  // A tenth of the tasks first: the memory of the full run must not grow with the tasks. Every
  // task is submitted at once (no window): the most the program can hold.
  const Usage small = run_client(platforms, n / 10, 0);
  const Usage big = run_client(platforms, n, 0);
  std::remove(platforms.c_str());
  for (const Usage* u : {&small, &big}) {
    EXPECT_EQ(u->wrong, 0);
    EXPECT_EQ(u->nodes, kNodes);
    // The bounds, with a margin for what a future runtime thread may add: boundedness, not an
    // exact count.
    EXPECT_LE(u->threads, thread_bound(kNodes) + 8) << "threads";
    EXPECT_LE(u->sockets, socket_bound(kNodes) + 8) << "sockets";
    EXPECT_LE(u->vmhwm_kib, 64 * 1024) << "peak RSS, KiB (docs/remote.md: 20 MiB measured)";
  }
  // Ten times the tasks: memory that does not follow them (the runtime frees what a finished
  // task held).
  EXPECT_LE(big.vmhwm_kib, small.vmhwm_kib * 2);
}

}  // namespace
}  // namespace remote_test
