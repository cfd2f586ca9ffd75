// cei-bench-overhead: per-task cost of CEI's runtime against StarPU 1.3 (dmda and lws) on
// 100,000 empty tasks in three patterns, and heap bytes per task in flight.
//
//   build/bench/overhead/cei-bench-overhead [--tasks 100000] [--runs 5] [--cores 2]
//
// StarPU runs in a child process per scheduler (it is configured once per process); CEI runs in
// this process afterwards. Times are medians over the runs.
#include "cei_driver.hpp"
#include "starpu_driver.hpp"

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
  std::size_t tasks = 100000;
  std::size_t memory_tasks = 50000;  // below the runtime's in-flight window
  int runs = 5;
  int cores = 2;
  bool starpu = true;        // --starpu off: CEI alone (profiling)
  std::string starpu_child;  // internal: run StarPU with this scheduler and print raw lines
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    std::string k = argv[i], v = i + 1 < argc ? argv[i + 1] : "";
    if (k == "--tasks")
      o.tasks = std::stoul(v);
    else if (k == "--runs")
      o.runs = std::stoi(v);
    else if (k == "--cores")
      o.cores = std::stoi(v);
    else if (k == "--memory-tasks")
      o.memory_tasks = std::stoul(v);
    else if (k == "--starpu" && (v == "on" || v == "off"))
      o.starpu = v == "on";
    else if (k == "--starpu-child" && !v.empty())
      o.starpu_child = v;
    else {
      std::fprintf(
          stderr,
          "usage: %s [--tasks N] [--runs R] [--cores C] [--memory-tasks M] [--starpu off]\n",
          argv[0]);
      std::exit(2);
    }
  }
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

constexpr double kLongRunUs = 30e6;

struct Result {
  std::map<std::string, double> us, bytes;
  std::map<std::string, int> runs;
};

int starpu_child(const Options& o) {
  bench::StarPU sp(o.starpu_child, o.cores);
  sp.time("independent", 1000);  // warm up: worker start, allocator
  for (auto& p : bench::kPatterns) {
    for (int r = 0; r < o.runs; ++r) {
      double us = sp.time(p, o.tasks);
      std::printf("time %s %.6f\n", p.c_str(), us);
      std::fflush(stdout);
      // dmda on the fan DAG can take minutes per run: one such run says enough.
      if (us * static_cast<double>(o.tasks) > kLongRunUs) break;
    }
    std::printf("bytes %s %.1f\n", p.c_str(), sp.bytes_in_flight(p, o.memory_tasks));
    std::fflush(stdout);
  }
  return 0;
}

Result parse_lines(std::FILE* in) {
  std::map<std::string, std::vector<double>> times;
  Result r;
  char line[256];
  while (std::fgets(line, sizeof line, in)) {
    std::istringstream s(line);
    std::string kind, pattern;
    double value;
    if (!(s >> kind >> pattern >> value)) continue;
    if (kind == "time") times[pattern].push_back(value);
    if (kind == "bytes") r.bytes[pattern] = value;
  }
  for (auto& [p, v] : times) {
    r.us[p] = median(v);
    r.runs[p] = static_cast<int>(v.size());
  }
  return r;
}

Result run_starpu(const Options& o, const std::string& scheduler) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return {};
  self[n] = '\0';
  std::string cmd = "STARPU_SILENT=1 '" + std::string(self) + "' --starpu-child " + scheduler +
                    " --tasks " + std::to_string(o.tasks) + " --runs " + std::to_string(o.runs) +
                    " --cores " + std::to_string(o.cores) + " --memory-tasks " +
                    std::to_string(o.memory_tasks);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) return {};
  return parse_lines(pipe.get());
}

Result run_cei(const Options& o) {
  Result r;
  bench::cei_time("independent", 1000);  // warm up: runtime start, worker threads
  for (auto& p : bench::kPatterns) {
    std::vector<double> v;
    for (int i = 0; i < o.runs; ++i) v.push_back(bench::cei_time(p, o.tasks));
    r.us[p] = median(v);
    r.bytes[p] = bench::cei_bytes_in_flight(p, o.memory_tasks);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  if (!o.starpu_child.empty()) return starpu_child(o);

  Result dmda = o.starpu ? run_starpu(o, "dmda") : Result{};
  Result lws = o.starpu ? run_starpu(o, "lws") : Result{};
  setenv("CEI_CPU_CORES", std::to_string(o.cores).c_str(), 1);
  Result cei = run_cei(o);

  std::printf("%zu empty tasks per pattern, %d worker cores, median of %d runs (us per task)\n\n",
              o.tasks, o.cores, o.runs);
  std::printf(
      "| pattern     | CEI us | StarPU dmda us | StarPU lws us | CEI/dmda | CEI/lws | "
      "targets (<=1/3, <=1/2) | CEI B/task | dmda B/task | lws B/task |\n");
  std::printf(
      "|-------------|-------:|---------------:|--------------:|---------:|--------:|"
      ":----------------------:|-----------:|------------:|-----------:|\n");
  bool all = true;
  for (auto& p : bench::kPatterns) {
    double c = cei.us[p], d = dmda.us[p], l = lws.us[p];
    double rd = d > 0 ? c / d : 0, rl = l > 0 ? c / l : 0;
    bool met = d > 0 && l > 0 && rd <= 1.0 / 3 && rl <= 0.5;
    all = all && met && cei.bytes[p] <= 1024;
    std::printf(
        "| %-11s | %6.3f | %14.3f | %13.3f | %8.3f | %7.3f | %-22s | %10.0f | %11.0f | "
        "%10.0f |\n",
        p.c_str(), c, d, l, rd, rl, met ? "met" : "MISSED", cei.bytes[p], dmda.bytes[p],
        lws.bytes[p]);
  }
  for (auto& [name, res] : {std::pair{"dmda", &dmda}, std::pair{"lws", &lws}})
    for (auto& [p, n] : res->runs)
      if (n < o.runs)
        std::printf("note: StarPU %s on %s ran %d time(s): one run took over %.0f s\n", name,
                    p.c_str(), n, kLongRunUs / 1e6);
  std::printf("\nall targets (time ratios and <= 1 KiB per in-flight task): %s\n",
              all ? "met" : "MISSED");
  return 0;
}
