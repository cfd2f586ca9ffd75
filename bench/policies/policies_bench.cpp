// The paper's Fig. 10 in spirit: a Bezier surface of 1024x1024 points computed in 1, 4, 16 and 64
// blocks on the CPU platform plus an OpenCL device. For each block count it measures every static
// split (k blocks on the device and the rest on the CPU, k = 0..blocks) and keeps the fastest, then
// measures that split again beside DynPerf and DynEn: wall time, energy (attributed per task by
// the platforms) and tasks per platform, one Markdown row each (header: run.sh). Each figure is
// the median of --reps runs, the three strategies taking turns so that the machine's load drifts
// over all of them alike. The search's median time of every split goes to stderr.
//
//   cei_policies_bench [--reps N] [--blocks N] [--kernel bezier.cl] [--config platforms.toml]
//
// The kernel and the config default to the copies the build puts next to the executable.
// CEI_CPU_CORES picks the CPU platform's cores; CEI_PLATFORMS, when set, wins over --config.
//
// The CE table is written by hand as ceic generates it: `patch` has the native version
// (examples/bezier) and the OpenCL kernel (examples/bezier/bezier.cl). Every strategy runs that
// one CE; a static split is a Policy (Split, below) set through the Decision Engine's seam.
#include "bezier.hpp"

#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace rt = cei::rt;
namespace fs = std::filesystem;
using Mat = cei::Matrix<float>;

constexpr int kResolution = 1024, kSide = 16;

struct Options {
  int reps = 5;
  int blocks = 0;  // 0: 1, 4, 16 and 64; else only that count (to trace one case)
  fs::path kernel, config;
};

// Defaults: the files CMake copies next to the executable, so that a build tree (or an installed
// copy of the folder) works wherever it is.
Options parse(int argc, char** argv) {
  const fs::path here = fs::canonical("/proc/self/exe").parent_path();
  Options o{5, 0, here / "bezier.cl", here / "platforms.toml"};
  for (int i = 1; i < argc; ++i) {
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw std::runtime_error(std::string(argv[i]) + " needs a value");
      return argv[++i];
    };
    if (!std::strcmp(argv[i], "--reps"))
      o.reps = std::max(1, std::atoi(value()));
    else if (!std::strcmp(argv[i], "--blocks"))
      o.blocks = std::atoi(value());
    else if (!std::strcmp(argv[i], "--kernel"))
      o.kernel = value();
    else if (!std::strcmp(argv[i], "--config"))
      o.config = value();
    else
      throw std::runtime_error(
          std::string("unknown argument ") + argv[i] +
          " (usage: [--reps N] [--blocks N] [--kernel bezier.cl] [--config platforms.toml])");
  }
  return o;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void invoke_patch(void* const* a) {
  *static_cast<Mat*>(a[6]) =
      bezier::patch(*static_cast<const Mat*>(a[0]), *static_cast<const int*>(a[1]),
                    *static_cast<const int*>(a[2]), *static_cast<const int*>(a[3]),
                    *static_cast<const int*>(a[4]), *static_cast<const int*>(a[5]));
}

const rt::TypeOps& int_ops() {
  return rt::type_ops<int>();
}
const rt::ParamInfo params[] = {{"control", rt::Dir::In, &rt::type_ops<Mat>()},
                                {"side", rt::Dir::In, &int_ops()},
                                {"resolution", rt::Dir::In, &int_ops()},
                                {"row0", rt::Dir::In, &int_ops()},
                                {"col0", rt::Dir::In, &int_ops()},
                                {"block", rt::Dir::In, &int_ops()}};
const rt::NativeVersion native[] = {{"bezier", &invoke_patch}};

// The CE, once the kernel's source is read (the table points into these strings).
struct PatchCe {
  std::string source, path;
  rt::OpenCLImpl kernel;
  rt::CeInfo ce;
  explicit PatchCe(const fs::path& cl)
      : source(read_file(cl)),
        path(cl.string()),
        kernel{"patch", source.c_str(), path.c_str(), "par5, par5", "", "", "par5, par5"},
        ce{"patch", "BezierCEI", false, params, 6, &rt::type_ops<Mat>(), native, 1, &kernel} {}
};

// A static split: the first `on_device` tasks go to opencl0, the others to cpu.
class Split final : public rt::Policy {
 public:
  explicit Split(int on_device) : left_(on_device) {}
  const char* name() const override { return "static split"; }
  std::size_t choose(const rt::CeInfo&, std::span<const rt::Candidate> cs) override {
    const char* want = left_ > 0 ? "opencl0" : "cpu";
    if (left_ > 0) --left_;
    for (std::size_t i = 0; i < cs.size(); ++i)
      if (cs[i].platform->name() == want) return i;
    throw std::logic_error(std::string("no candidate ") + want);
  }

 private:
  int left_;  // the submitting thread alone calls choose()
};

// Tasks, joules and energy sources per platform, from the runtime's reports.
struct Tally final : rt::Observer {
  std::mutex mu;
  std::map<std::string, int> tasks;
  std::set<std::string> sources;
  double joules = 0;

  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task&, const rt::Platform&, int) override {}
  void task_finished(const rt::Task& t, const rt::Platform& p, int, bool) override {
    const auto& timing = t.timing();
    std::lock_guard g(mu);
    ++tasks[p.name()];
    joules += timing.energy_j;
    sources.insert(timing.energy_source ? timing.energy_source : "none");
  }
  // A meter's figures come after the tasks, at the latest when drain() returns.
  void task_energy(std::uint64_t, const rt::Platform&, double j, const char*) override {
    std::lock_guard g(mu);
    joules += j;
  }
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
  void reset() {
    std::lock_guard g(mu);
    tasks.clear();
    sources.clear();
    joules = 0;
  }
};
std::shared_ptr<Tally> tally = [] {
  auto t = std::make_shared<Tally>();
  rt::add_observer(t);  // before the runtime starts
  return t;
}();

struct Result {
  double seconds = 0, joules = 0;
  int cpu = 0, cl = 0;
  std::string energy_from;
};

// One surface: blocks x blocks tasks of `patch`, placed by the runtime's current policy.
Result surface(const rt::CeInfo& ce, const Mat& control, int per_side) {
  rt::Runtime::instance().drain();
  tally->reset();
  const int block = kResolution / per_side, n = per_side * per_side;
  std::vector<Mat> out(n);
  const auto t0 = std::chrono::steady_clock::now();
  {
    std::vector<std::unique_ptr<rt::Scope>> scopes;
    for (auto& m : out) scopes.push_back(std::make_unique<rt::Scope>(m));
    for (int b = 0; b < n; ++b)
      rt::assign(out[b], rt::call<Mat>(ce, rt::in<Mat>(control), rt::in<int>(kSide),
                                       rt::in<int>(kResolution), rt::in<int>(b / per_side * block),
                                       rt::in<int>(b % per_side * block), rt::in<int>(block)));
    for (auto& m : out) rt::sync_read(m);
  }
  const auto t1 = std::chrono::steady_clock::now();
  rt::Runtime::instance().drain();  // every task's report is in
  Result r;
  r.seconds = std::chrono::duration<double>(t1 - t0).count();
  std::lock_guard g(tally->mu);
  r.joules = tally->joules;
  r.cpu = tally->tasks["cpu"];
  r.cl = tally->tasks["opencl0"];
  for (const auto& s : tally->sources) r.energy_from += (r.energy_from.empty() ? "" : "+") + s;
  return r;
}

// `warmups` surfaces first, unmeasured, as the dynamic policies run two to learn from.
Result split(const rt::CeInfo& ce, const Mat& control, int per_side, int on_device,
             int warmups = 0) {
  for (int i = 0;; ++i) {
    rt::Runtime::instance().drain();
    rt::Runtime::instance().set_policy(std::make_unique<Split>(on_device));  // counts afresh
    Result r = surface(ce, control, per_side);
    if (i == warmups) return r;
  }
}

// A fresh history and the named policy, then two surfaces to learn from (every platform explored
// even with one block): the measured surface runs on profiles of its own block size, as a
// CEI_PROFILE from an earlier run would provide.
Result dynamic(const rt::CeInfo& ce, const Mat& control, int per_side, const std::string& policy) {
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.drain();
  rt::Config cfg = rt::launch_config();
  cfg.policy.name = policy;
  auto store = std::make_unique<rt::ProfileStore>(
      rt::ProfileOptions{cfg.profile.explore_runs, cfg.profile.default_exec_s});
  runtime.set_policy(rt::make_policy(cfg, store.get()));
  runtime.set_profiles(std::move(store));
  surface(ce, control, per_side);
  surface(ce, control, per_side);
  return surface(ce, control, per_side);
}

// The run of median time among `runs` (energy and tasks come with it).
Result median(std::vector<Result> runs) {
  std::sort(runs.begin(), runs.end(),
            [](const Result& a, const Result& b) { return a.seconds < b.seconds; });
  return runs[runs.size() / 2];
}

void row(int cores, int blocks, const std::string& strategy, const Result& r, double best_s) {
  std::printf("| %d | %d | %s | %.3f | %.2fx | %.2f | %s | %d / %d |\n", cores, blocks,
              strategy.c_str(), r.seconds, r.seconds / best_s, r.joules, r.energy_from.c_str(),
              r.cpu, r.cl);
  std::fflush(stdout);
}

int run(const Options& o) {
  setenv("CEI_PLATFORMS", o.config.c_str(), 0);  // a user's own config wins
  const PatchCe patch(o.kernel);
  rt::Runtime& runtime = rt::Runtime::instance();
  if (!runtime.find_platform("cpu") || !runtime.find_platform("opencl0")) {
    std::fprintf(stderr, "needs platforms cpu and opencl0 (PoCL)\n");
    return 1;
  }
  const int cores = static_cast<int>(runtime.find_platform("cpu")->workers());
  Mat control(kSide, kSide);
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j) control(i, j) = std::sin(0.7f * i) * std::cos(0.4f * j);
  rt::Scope control_scope(control);
  split(patch.ce, control, 4, 16);  // builds the kernel, warms both platforms
  split(patch.ce, control, 4, 0);
  for (int per_side : {1, 2, 4, 8}) {
    const int n = per_side * per_side;
    if (o.blocks && o.blocks != n) continue;
    // The search: every split, `reps` times, the fastest median wins.
    std::vector<std::vector<Result>> splits(n + 1);
    for (int rep = 0; rep < o.reps; ++rep)
      for (int k = 0; k <= n; ++k) splits[k].push_back(split(patch.ce, control, per_side, k));
    int best_k = 0;
    std::vector<double> searched;
    for (int k = 0; k <= n; ++k) {
      searched.push_back(median(splits[k]).seconds);
      if (searched[k] < searched[best_k]) best_k = k;
    }
    // The whole search on stderr: the time of every split, to see how flat its optimum is.
    std::fprintf(stderr, "cores %d, %d blocks, median s per k on opencl0:", cores, n);
    for (int k = 0; k <= n; ++k) std::fprintf(stderr, " %d:%.3f", k, searched[k]);
    std::fprintf(stderr, "\n");
    // The comparison: the winning split measured again, taking turns with the dynamic policies
    // and warmed up as they are. Its search median is the least of n + 1 noisy medians, biased
    // low by the noise itself (the winner's curse); a fresh sample is what its user would see.
    std::vector<Result> best, perf, en;
    for (int rep = 0; rep < o.reps; ++rep) {
      best.push_back(split(patch.ce, control, per_side, best_k, 2));
      perf.push_back(dynamic(patch.ce, control, per_side, "dynperf"));
      en.push_back(dynamic(patch.ce, control, per_side, "dynen"));
    }
    const double best_s = median(best).seconds;
    row(cores, n, "best static (" + std::to_string(best_k) + " on opencl0)", median(best), best_s);
    row(cores, n, "DynPerf", median(perf), best_s);
    row(cores, n, "DynEn (5 J/s)", median(en), best_s);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cei_policies_bench: %s\n", e.what());
    return 2;
  }
}
