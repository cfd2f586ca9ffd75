// cei-bench-overhead: per-task cost of CEI's runtime against StarPU 1.3 (dmda and lws) on empty
// tasks in three patterns, and heap bytes per task in flight, at one or several core counts.
//
//   build/bench/overhead/cei-bench-overhead [--tasks 100000] [--runs 5] [--cores 1,2,4,8,16]
//       [--rounds 1|10] [--starpu-tasks 20000] [--starpu-timeout 120] [--starpu off]
//
// Every runtime and core count runs in a child process of this command (each runtime reads its
// worker count once per process): StarPU per scheduler, then CEI. A StarPU child gets at most
// --starpu-tasks tasks per pattern and --starpu-timeout seconds in all (dmda's fan pattern takes
// minutes on many cores); what it did not finish is shown as such. Times are medians over the runs.
// `--child cei --cores C --patterns P[,P...]` runs CEI's child alone on those patterns and prints
// its raw lines: the command to put under a profiler. With --rounds R, CEI's child runs R times per
// core count, the core counts taking turns, and its times are the medians of every run of every
// round: one process's runs move together (by 30% and more between two processes on the same
// 16-vCPU machine), so a single process per core count made the spread across core counts a draw.
// The default is 1 round for one core count, 10 for several (the spread is then what is asked:
// with 6, the max/min of the medians still moved by 0.3 between two commands on the same machine).
#include "cei_driver.hpp"
#include "starpu_driver.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
  std::size_t tasks = 100000;
  std::size_t starpu_tasks = 20000;
  std::size_t memory_tasks = 2000;  // below CEI's in-flight window (CEI_MAX_IN_FLIGHT, 4096)
  int runs = 5;
  int rounds = 0;  // 0: 1 for one core count, 10 for several
  std::vector<int> cores{2};
  double starpu_timeout_s = 120;
  bool starpu = true;     // --starpu off: CEI alone (profiling)
  std::string child;      // internal: "cei" or a StarPU scheduler; prints raw lines
  std::string memory_of;  // internal, CEI: only the memory figure of this pattern
  std::vector<std::string> patterns = bench::kPatterns;  // with --child: these alone (profiling)
};

[[noreturn]] void usage(const char* self, const std::string& why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--tasks N] [--runs R] [--cores C[,C...]] [--rounds R] "
               "[--starpu-tasks N] [--starpu-timeout S] [--memory-tasks M] [--starpu on|off]\n"
               "       %s --child cei --cores C --patterns P[,P...]  (CEI alone, to profile)\n",
               self, why.c_str(), self, self);
  std::exit(2);
}

// A positive integer, or a usage error naming the option.
long positive(const char* self, const std::string& option, const std::string& v) {
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n <= 0)
    usage(self, option + " wants a positive integer, not '" + v + "'");
  return n;
}

Options parse(int argc, char** argv) {
  Options o;
  const char* self = argv[0];
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (i + 1 >= argc) usage(self, k + " wants a value");
    const std::string v = argv[i + 1];
    if (k == "--tasks") {
      o.tasks = static_cast<std::size_t>(positive(self, k, v));
    } else if (k == "--starpu-tasks") {
      o.starpu_tasks = static_cast<std::size_t>(positive(self, k, v));
    } else if (k == "--starpu-timeout") {
      o.starpu_timeout_s = static_cast<double>(positive(self, k, v));
    } else if (k == "--runs") {
      o.runs = static_cast<int>(positive(self, k, v));
    } else if (k == "--rounds") {
      o.rounds = static_cast<int>(positive(self, k, v));
    } else if (k == "--cores") {
      o.cores.clear();
      std::stringstream s(v);
      for (std::string c; std::getline(s, c, ',');)
        o.cores.push_back(static_cast<int>(positive(self, k, c)));
    } else if (k == "--memory-tasks") {
      o.memory_tasks = static_cast<std::size_t>(positive(self, k, v));
    } else if (k == "--starpu" && (v == "on" || v == "off")) {
      o.starpu = v == "on";
    } else if (k == "--child") {
      o.child = v;
    } else if (k == "--patterns") {
      o.patterns.clear();
      std::stringstream s(v);
      for (std::string p; std::getline(s, p, ',');) {
        if (std::find(bench::kPatterns.begin(), bench::kPatterns.end(), p) ==
            bench::kPatterns.end())
          usage(self, "--patterns wants independent, chain or fan, not '" + p + "'");
        o.patterns.push_back(p);
      }
    } else if (k == "--memory-of") {
      if (std::find(bench::kPatterns.begin(), bench::kPatterns.end(), v) == bench::kPatterns.end())
        usage(self, "--memory-of wants independent, chain or fan, not '" + v + "'");
      o.memory_of = v;
    } else {
      usage(self, "unknown option " + k);
    }
  }
  if (o.rounds == 0) o.rounds = o.cores.size() > 1 ? 10 : 1;
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void line(const char* kind, const std::string& pattern, double value) {
  std::printf("%s %s %.6f\n", kind, pattern.c_str(), value);
  std::fflush(stdout);  // the parent keeps what came before a timeout
}

int cei_child(const Options& o) {
  if (!o.memory_of.empty()) {  // a fresh process (see main)
    line("bytes", o.memory_of, bench::cei_bytes_in_flight(o.memory_of, o.memory_tasks));
    return 0;
  }
  bench::cei_warm_up();
  for (auto& p : o.patterns)
    for (int r = 0; r < o.runs; ++r) line("time", p, bench::cei_time(p, o.tasks));
  return 0;
}

int starpu_child(const Options& o) {
  bench::StarPU sp(o.child, o.cores.front());
  sp.time("independent", 1000);  // warm up: worker start, allocator
  for (auto& p : bench::kPatterns) {
    for (int r = 0; r < o.runs; ++r) line("time", p, sp.time(p, o.tasks));
    line("bytes", p, sp.bytes_in_flight(p, o.memory_tasks));
  }
  return 0;
}

struct Result {
  std::map<std::string, double> us, bytes;
  std::map<std::string, int> runs;
  std::map<std::string, std::vector<double>> samples;  // every run's time, for later rounds
  bool timed_out = false;
  bool failed = false;  // exited with an error or produced nothing
};

// Adds runs' times to r's and takes the medians again.
void add_samples(Result& r, const std::map<std::string, std::vector<double>>& times) {
  for (auto& [p, v] : times) r.samples[p].insert(r.samples[p].end(), v.begin(), v.end());
  for (auto& [p, v] : r.samples) {
    r.us[p] = median(v);
    r.runs[p] = static_cast<int>(v.size());
  }
}

void parse_lines(const std::string& out, Result& r) {
  std::map<std::string, std::vector<double>> times;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) {
    std::istringstream s(l);
    std::string kind, pattern;
    double value;
    if (!(s >> kind >> pattern >> value)) continue;
    if (kind == "time") times[pattern].push_back(value);
    if (kind == "bytes") r.bytes[pattern] = value;
  }
  add_samples(r, times);
}

// Runs this program as a child (`child`: "cei" or a StarPU scheduler) on `cores` workers and
// `tasks` tasks; kills it after `timeout_s`, keeping the lines it printed before.
Result run_child(const Options& o, const std::string& child, int cores, std::size_t tasks,
                 double timeout_s, const std::vector<std::string>& extra = {}) {
  Result r;
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  int fds[2];
  if (n <= 0 || pipe(fds) != 0) {
    r.failed = true;
    return r;
  }
  self[n] = '\0';
  std::vector<std::string> args{self,
                                "--child",
                                child,
                                "--cores",
                                std::to_string(cores),
                                "--tasks",
                                std::to_string(tasks),
                                "--runs",
                                std::to_string(o.runs),
                                "--memory-tasks",
                                std::to_string(std::min(o.memory_tasks, tasks))};
  args.insert(args.end(), extra.begin(), extra.end());
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    setenv("STARPU_SILENT", "1", 1);
    setenv("CEI_CPU_CORES", std::to_string(cores).c_str(), 1);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(self, argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      kill(pid, SIGKILL);
      r.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000))) <= 0) continue;
    char buf[4096];
    const ssize_t got = read(fds[0], buf, sizeof buf);
    if (got <= 0) break;
    out.append(buf, static_cast<std::size_t>(got));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.failed = !r.timed_out && (!WIFEXITED(status) || WEXITSTATUS(status) != 0);
  parse_lines(out, r);
  return r;
}

std::string cell(const Result& r, const std::string& p, int runs) {
  char s[64];
  if (auto it = r.us.find(p); it != r.us.end()) {
    std::snprintf(s, sizeof s, "%.3f%s", it->second, r.runs.at(p) < runs ? "*" : "");
    return s;
  }
  return r.timed_out ? "timeout" : r.failed ? "failed" : "-";
}

std::string ratio(const Result& cei, const Result& other, const std::string& p) {
  auto c = cei.us.find(p), d = other.us.find(p);
  if (c == cei.us.end() || d == other.us.end() || d->second <= 0) return "-";
  char s[32];
  std::snprintf(s, sizeof s, "%.3f", c->second / d->second);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.child == "cei") return cei_child(o);
  if (!o.child.empty()) return starpu_child(o);

  const std::size_t sp_tasks = std::min(o.tasks, o.starpu_tasks);
  std::printf(
      "empty tasks per pattern: CEI %zu, StarPU %zu (at most %.0f s per scheduler and "
      "core count); median of %d runs%s; us per task\n",
      o.tasks, sp_tasks, o.starpu_timeout_s, o.runs * o.rounds,
      o.rounds > 1
          ? (" (CEI: " + std::to_string(o.rounds) + " rounds over the core counts)").c_str()
          : "");
  std::map<int, Result> cei_at, dmda_at, lws_at;
  for (const int cores : o.cores) {
    if (o.starpu) {
      dmda_at[cores] = run_child(o, "dmda", cores, sp_tasks, o.starpu_timeout_s);
      lws_at[cores] = run_child(o, "lws", cores, sp_tasks, o.starpu_timeout_s);
    }
    // CEI's own limit only catches a hang: its runs take seconds.
    Result& cei = cei_at[cores] = run_child(o, "cei", cores, o.tasks, 600);
    // CEI's memory figures each in a fresh process: after the timing runs the runtime's pools
    // hold blocks for a whole in-flight window, and gated tasks taking those showed no growth.
    for (auto& p : bench::kPatterns) {
      Result m = run_child(o, "cei", cores, o.tasks, 600, {"--memory-of", p});
      if (m.bytes.count(p)) cei.bytes[p] = m.bytes.at(p);
    }
  }
  for (int round = 1; round < o.rounds; ++round)
    for (const int cores : o.cores) {
      const Result more = run_child(o, "cei", cores, o.tasks, 600);
      Result& cei = cei_at[cores];
      add_samples(cei, more.samples);
      cei.timed_out = cei.timed_out || more.timed_out;
      cei.failed = cei.failed || more.failed;
    }
  bool all = true;
  for (const int cores : o.cores) {
    const Result &cei = cei_at[cores], &dmda = dmda_at[cores], &lws = lws_at[cores];
    std::printf("\n%d worker core(s)\n\n", cores);
    std::printf(
        "| pattern     | CEI us | StarPU dmda us | StarPU lws us | CEI/dmda | CEI/lws | "
        "targets (<=1/3, <=1/2) | CEI B/task | dmda B/task | lws B/task |\n"
        "|-------------|-------:|---------------:|--------------:|---------:|--------:|"
        ":----------------------:|-----------:|------------:|-----------:|\n");
    for (auto& p : bench::kPatterns) {
      const double c = cei.us.count(p) ? cei.us.at(p) : 0;
      const double d = dmda.us.count(p) ? dmda.us.at(p) : 0;
      const double l = lws.us.count(p) ? lws.us.at(p) : 0;
      // A StarPU pattern that timed out took longer than any figure CEI could print.
      const bool beat_dmda = c > 0 && (d > 0 ? c / d <= 1.0 / 3 : dmda.timed_out);
      const bool beat_lws = c > 0 && (l > 0 ? c / l <= 0.5 : lws.timed_out);
      const bool met = beat_dmda && beat_lws;
      const double bytes = cei.bytes.count(p) ? cei.bytes.at(p) : 1e9;
      all = all && met && bytes <= 1024;
      std::printf("| %-11s | %6s | %14s | %13s | %8s | %7s | %-22s | %10.0f | %11.0f | %10.0f |\n",
                  p.c_str(), cell(cei, p, o.runs * o.rounds).c_str(), cell(dmda, p, o.runs).c_str(),
                  cell(lws, p, o.runs).c_str(), ratio(cei, dmda, p).c_str(),
                  ratio(cei, lws, p).c_str(), met ? "met" : "MISSED", bytes,
                  dmda.bytes.count(p) ? dmda.bytes.at(p) : 0.0,
                  lws.bytes.count(p) ? lws.bytes.at(p) : 0.0);
    }
    for (auto& [name, res] :
         {std::pair{"dmda", &dmda}, std::pair{"lws", &lws}, std::pair{"CEI", &cei}})
      if (res->timed_out)
        std::printf(
            "note: %s was stopped at its time limit; * marks a median of fewer runs, "
            "'timeout' a pattern it did not reach\n",
            name);
  }
  if (o.cores.size() > 1) {
    // The per-task cost should not grow with cores: the submitting thread sets the pace.
    std::printf("\nCEI us per task by core count (target: max/min <= 1.3)\n\n| pattern     |");
    for (const int c : o.cores) std::printf(" %6d |", c);
    std::printf(" max/min |\n|-------------|");
    for (std::size_t i = 0; i < o.cores.size(); ++i) std::printf("-------:|");
    std::printf("--------:|\n");
    for (auto& p : bench::kPatterns) {
      double lo = 0, hi = 0;
      std::printf("| %-11s |", p.c_str());
      for (const int c : o.cores) {
        const double us = cei_at[c].us.count(p) ? cei_at[c].us.at(p) : 0;
        std::printf(" %6.3f |", us);
        lo = lo == 0 ? us : std::min(lo, us);
        hi = std::max(hi, us);
      }
      const double spread = lo > 0 ? hi / lo : 0;
      all = all && lo > 0 && spread <= 1.3;
      std::printf(" %7.2f |\n", spread);
    }
  }
  std::printf("\nall targets (time ratios, flat in cores, <= 1 KiB per in-flight task): %s\n",
              all ? "met" : "MISSED");
  return 0;
}
