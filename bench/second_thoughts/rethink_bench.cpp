// Second thoughts against a run that knew beforehand (docs/policies.md, "Second thoughts").
//
// A batch of independent tasks of one CE on the CPU platform and an OpenCL device, under DynPerf.
// The device's kernel is calibrated first to take a few milliseconds. --slow cpu (the default):
// the CPU's version takes a quarter of the device's time, as its profile says, until the CPU
// slows down 20x (its version sleeps: cores taken by another program). --slow device: the CPU's
// version takes four times the device's time, and the device slows down 20x (its kernel iterates
// 20 times longer than when it was calibrated). Three runs of the same program, each in a process
// of its own, taking turns for --reps rounds:
//
//   knew        the profile already says the slowed platform is slow (what a run that knew does)
//   rethink     the profile says it is fast; second thoughts on (the default)
//   off         the same, CEI_SECOND_THOUGHTS=off: it keeps what was queued on it
//
// and a Markdown row each: the batch's median wall time, its ratio to `knew`, tasks re-placed and
// tasks per platform. The target: rethink <= 1.2x knew.
//
//   cei_bench_rethink [--reps N] [--tasks N] [--slow cpu|device] [--config platforms.toml]
//
// The config defaults to the copy the build puts next to the executable; CEI_PLATFORMS, when
// set, wins. CEI_CPU_CORES narrows the CPU platform.
#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include "rethink_ce.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace rt = cei::rt;
namespace fs = std::filesystem;
using cei::rethink::cpu_seconds;
using cei::rethink::inc_ce;
using cei::rethink::IVec;
using Seconds = std::chrono::duration<double>;

constexpr std::size_t kSize = 256;
constexpr double kSpeedup = 4;    // the other platform against the one that slows down, before
constexpr double kSlowdown = 20;  // ... and how much slower that one becomes

// Tasks re-placed and tasks per platform.
struct Tally final : rt::Observer {
  std::mutex mu;
  std::size_t replaced = 0;
  std::map<std::string, std::size_t> ran;
  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task&, const rt::Platform&, int) override {}
  void task_finished(const rt::Task&, const rt::Platform& p, int, bool) override {
    std::lock_guard g(mu);
    ++ran[p.name()];
  }
  void task_replaced(const rt::Task&, const rt::Platform&, const rt::Platform&, double) override {
    std::lock_guard g(mu);
    ++replaced;
  }
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
};

// n independent tasks; the wall time until every result is back and checked.
double batch(int n, int iters) {
  std::vector<IVec> in(n), out(n);
  std::vector<std::unique_ptr<rt::Scope>> scopes;
  for (int i = 0; i < n; ++i) {
    in[i] = IVec(kSize);
    std::iota(in[i].begin(), in[i].end(), i);
    scopes.push_back(std::make_unique<rt::Scope>(in[i]));
    scopes.push_back(std::make_unique<rt::Scope>(out[i]));
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    rt::assign(out[i], rt::call<IVec>(inc_ce, rt::in<IVec>(in[i]), rt::in<int>(iters)));
  for (int i = 0; i < n; ++i)
    for (std::size_t k = 0; k < kSize; ++k)
      if (rt::sync_read(out[i])(k) != static_cast<int>(k) + i + 1)
        throw std::runtime_error("task " + std::to_string(i) + ": wrong result");
  return Seconds(std::chrono::steady_clock::now() - t0).count();
}

// The device's time per task with `iters`, the device alone running a few tasks in order.
double device_seconds(int iters) {
  rt::Runtime& runtime = rt::Runtime::instance();
  rt::Config cfg = rt::launch_config();
  cfg.policy.name = "only:opencl0";
  auto store = std::make_unique<rt::ProfileStore>();
  rt::ProfileStore* measured = store.get();
  runtime.set_policy(rt::make_policy(cfg, measured));
  runtime.set_profiles(std::move(store));
  batch(8, iters);
  runtime.drain();
  return measured->predict(inc_ce, -1, "opencl0", kSize * sizeof(int)).seconds;
}

// One run in this process: prints "seconds replaced cpu opencl0".
int child(const std::string& mode, int tasks, bool slow_device) {
  auto tally = std::make_shared<Tally>();
  rt::add_observer(tally);  // before the runtime starts, which takes the observers then
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.wait_for_platforms();
  if (!runtime.find_platform("opencl0")) throw std::runtime_error("no OpenCL device opencl0");
  // A few milliseconds per kernel: long enough that placement, not overhead, decides.
  int iters = 1000;
  double dev = device_seconds(iters);
  while (dev < 4e-3 && iters < (1 << 28)) dev = device_seconds(iters *= 2);
  const bool knew = mode == "knew";
  // The CPU's time before the slowdown, as its profile says.
  const double cpu = slow_device ? dev * kSpeedup : dev / kSpeedup;
  auto store = std::make_unique<rt::ProfileStore>();
  const double bytes = kSize * sizeof(int) + sizeof(int);
  store->record(inc_ce, 0, "cpu", bytes, knew && !slow_device ? cpu * kSlowdown : cpu);
  store->record(inc_ce, -1, "opencl0", bytes, knew && slow_device ? dev * kSlowdown : dev);
  runtime.set_policy(rt::make_policy(rt::launch_config(), store.get()));
  runtime.set_profiles(std::move(store));
  // The platform has slowed down since its profile was made.
  cpu_seconds = slow_device ? cpu : cpu * kSlowdown;
  if (slow_device) iters = static_cast<int>(iters * kSlowdown);
  {
    std::lock_guard g(tally->mu);
    tally->ran.clear();
  }
  const double s = batch(tasks, iters);
  runtime.drain();
  std::lock_guard g(tally->mu);
  std::printf("%.6f %zu %zu %zu\n", s, tally->replaced, tally->ran["cpu"], tally->ran["opencl0"]);
  return 0;
}

struct Result {
  std::vector<double> seconds;
  std::size_t replaced = 0, cpu = 0, dev = 0;
};

Result run_child(const fs::path& self, const std::string& mode, int tasks,
                 const std::string& slow) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    if (mode == "off") setenv("CEI_SECOND_THOUGHTS", "off", 1);
    const std::string n = std::to_string(tasks);
    execl(self.c_str(), self.c_str(), "--mode", mode.c_str(), "--tasks", n.c_str(), "--slow",
          slow.c_str(), nullptr);
    _exit(127);
  }
  close(fd[1]);
  std::string out;
  char buf[256];
  for (ssize_t k; (k = read(fd[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(k));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Result r;
  double s = 0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      std::sscanf(out.c_str(), "%lf %zu %zu %zu", &s, &r.replaced, &r.cpu, &r.dev) != 4)
    throw std::runtime_error("the " + mode + " run failed: " + out);
  r.seconds.push_back(s);
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) try {
  const fs::path self = fs::canonical("/proc/self/exe");
  int reps = 5, tasks = 96;
  std::string mode, slow = "cpu";
  fs::path config = self.parent_path() / "platforms.toml";
  for (int i = 1; i < argc; ++i) {
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw std::runtime_error(std::string(argv[i]) + " needs a value");
      return argv[++i];
    };
    if (!std::strcmp(argv[i], "--reps"))
      reps = std::max(1, std::atoi(value()));
    else if (!std::strcmp(argv[i], "--tasks"))
      tasks = std::max(1, std::atoi(value()));
    else if (!std::strcmp(argv[i], "--mode"))
      mode = value();
    else if (!std::strcmp(argv[i], "--config"))
      config = value();
    else if (!std::strcmp(argv[i], "--slow"))
      slow = value();
    else
      throw std::runtime_error(std::string("unknown argument ") + argv[i] +
                               " (usage: [--reps N] [--tasks N] [--slow cpu|device] [--config "
                               "platforms.toml])");
  }
  if (slow != "cpu" && slow != "device")
    throw std::runtime_error("--slow: expected cpu or device, got '" + slow + "'");
  if (!mode.empty()) return child(mode, tasks, slow == "device");
  setenv("CEI_PLATFORMS", config.c_str(), 0);
  unsetenv("CEI_POLICY");
  unsetenv("CEI_PROFILE");
  const char* modes[] = {"knew", "rethink", "off"};
  std::map<std::string, Result> results;
  for (int r = 0; r < reps; ++r)
    for (const char* m : modes) {
      Result one = run_child(self, m, tasks, slow);
      Result& all = results[m];
      all.seconds.push_back(one.seconds.front());
      all.replaced += one.replaced;
      all.cpu += one.cpu;
      all.dev += one.dev;
    }
  std::printf("| run | batch time (s) | vs knew | re-placed | tasks cpu / opencl0 |\n");
  std::printf("|---|---|---|---|---|\n");
  const double knew = median(results["knew"].seconds);
  for (const char* m : modes) {
    const Result& r = results[m];
    const auto n = static_cast<double>(reps);
    std::printf("| %s | %.3f | %.2fx | %.1f | %.1f / %.1f |\n", m, median(r.seconds),
                median(r.seconds) / knew, static_cast<double>(r.replaced) / n,
                static_cast<double>(r.cpu) / n, static_cast<double>(r.dev) / n);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "cei_bench_rethink: %s\n", e.what());
  return 2;
}
