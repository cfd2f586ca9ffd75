// OpenCL platforms that are candidates before their device is open (docs/opencl.md, "Opening the
// devices"), inside the real runtime on PoCL. The launch config lists the CPU platform alone
// (opening_main sets CEI_PLATFORMS); each test adds its own opening platform and opens it, or
// finds it gone, itself: nothing here depends on how long a driver takes.
#include "inc_ce.hpp"
#include "kernels.hpp"

#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;

std::atomic<int> native_incs{0};
void inc_native(void* const* a) {
  ++native_incs;
  IVec r = *static_cast<const IVec*>(a[0]);
  for (auto& x : r) x += 1;
  *static_cast<IVec*>(a[1]) = std::move(r);
}
const rt::NativeVersion inc_versions[] = {{"Native", &inc_native}};
// inc with a native version beside its kernel: the CPU platform can run it too.
const rt::CeInfo inc_anywhere{"inc",   "OpeningCEI", false, inc_params, 1,
                              &ivec(), inc_versions, 1,     &inc_cl};

// Places every task on the platform named `wanted` when it is a candidate, else on the CPU, and
// keeps what `wanted` forecast.
struct Prefer final : rt::Policy {
  explicit Prefer(std::string wanted) : wanted(std::move(wanted)) {}
  const char* name() const override { return "prefer"; }
  bool by_forecasts() const override { return false; }
  std::size_t choose(const rt::CeInfo&, std::span<const rt::Candidate> cs) override {
    std::size_t cpu = 0;
    for (std::size_t i = 0; i < cs.size(); ++i) {
      if (cs[i].platform->name() == "cpu") cpu = i;
      if (cs[i].platform->name() != wanted) continue;
      std::lock_guard g(mu);
      forecasts.push_back(cs[i].forecast);
      return i;
    }
    return cpu;
  }
  std::string wanted;
  std::mutex mu;
  std::vector<rt::Forecast> forecasts;
};

// A device that opens while the runtime starts, before it has a policy (PoCL opens in a few ms on
// the opener's thread, which starts with the platforms): its revisit must not look at a policy
// that is not there yet.
std::atomic<bool> opened_while_starting{false};
const bool early_opener = rt::register_platform_factory("early", [](rt::Runtime& runtime) {
  runtime.platform_opened(*runtime.find_platform("cpu"));
  opened_while_starting = true;
});

TEST(Opening, ADeviceThatOpensWhileTheRuntimeStartsFindsNothingToRevisit) {
  rt::Runtime::instance();  // crashed here when the revisit read the policy not yet set
  EXPECT_TRUE(early_opener);
  EXPECT_TRUE(opened_while_starting.load());
}

// Adds an opening platform called `name`, expected open in `open_s`, under a policy that
// prefers it.
opencl::OpenCLPlatform& expect(const std::string& name, double open_s, Prefer*& policy) {
  auto& runtime = rt::Runtime::instance();
  auto p = std::make_unique<opencl::OpenCLPlatform>(name, opencl::Options::from_env(), open_s);
  auto& raw = *p;
  runtime.add_platform(std::move(p));
  auto prefer = std::make_unique<Prefer>(name);
  policy = prefer.get();
  runtime.set_policy(std::move(prefer));
  return raw;
}

TEST(Opening, APlatformStillOpeningTakesTasksAndRunsThemOnceOpen) {
  Prefer* policy = nullptr;
  opencl::OpenCLPlatform& late = expect("late", 5.0, policy);
  IVec v = iota(1000, 0);
  rt::Scope scope(v);
  // A chain and a task only a device can run, all placed before the device is there.
  IVec w, x;
  rt::Scope scope_w(w), scope_x(x);
  rt::assign(w, rt::call<IVec>(inc_anywhere, rt::in<IVec>(v)));
  rt::assign(x, rt::call<IVec>(inc_ce, rt::in<IVec>(w)));
  EXPECT_FALSE(late.is_open());
  {
    std::lock_guard g(policy->mu);
    // The first task's choice (the device alone can run the second: no choice to make).
    EXPECT_EQ(policy->forecasts.size(), 1u);
    // Its forecast counts the time it still needs to open.
    for (const rt::Forecast& f : policy->forecasts) EXPECT_GT(f.end_s, 4.0);
  }
  late.open(opencl::list_devices().at(0).index, [](opencl::OpenCLPlatform&) {});
  EXPECT_EQ(rt::sync_read(x), iota(1000, 2));
  EXPECT_EQ(rt::sync_read(w), iota(1000, 1));
  rt::Runtime::instance().drain();      // kernels are counted after their values are published
  EXPECT_EQ(late.stats().kernels, 2u);  // both ran on the device, none on the CPU
  EXPECT_EQ(native_incs.load(), 0);
}

TEST(Opening, ADeviceThatIsNotThereGivesItsTasksBackAndNoResultIsLost) {
  Prefer* policy = nullptr;
  opencl::OpenCLPlatform& ghost = expect("ghost", 0.0, policy);
  const int native_before = native_incs.load();
  IVec v = iota(100, 0);
  rt::Scope scope(v);
  for (int i = 0; i < 3; ++i) rt::assign(v, rt::call<IVec>(inc_anywhere, rt::in<IVec>(v)));
  EXPECT_EQ(policy->forecasts.size(), 3u);  // all three went to it
  ghost.gone("not found by this test");
  EXPECT_EQ(rt::sync_read(v), iota(100, 3));
  EXPECT_EQ(native_incs.load() - native_before, 3);  // the CPU platform ran them
  EXPECT_FALSE(ghost.can_run(inc_anywhere));
}

// Places each task where it is forecast to end first, as DynPerf does, among the CPU and the
// platform called `device` (the other tests' platforms stay in the runtime when run in one
// process); the tasks of `on_cpu`, if any, always on the CPU.
struct Earliest final : rt::Policy {
  explicit Earliest(std::string device, const rt::CeInfo* on_cpu = nullptr)
      : device(std::move(device)), on_cpu(on_cpu) {}
  const char* name() const override { return "earliest"; }
  bool by_forecasts() const override { return true; }
  std::size_t choose(const rt::CeInfo& ce, std::span<const rt::Candidate> cs) override {
    std::size_t best = cs.size();
    for (std::size_t i = 0; i < cs.size(); ++i) {
      const std::string& n = cs[i].platform->name();
      if (&ce == on_cpu && n == "cpu") return i;
      if (n != "cpu" && n != device) continue;
      if (best == cs.size() || cs[i].forecast.end_s < cs[best].forecast.end_s) best = i;
    }
    return best;
  }
  std::string device;
  const rt::CeInfo* on_cpu;
};

// The CPU's version of inc_gated: each worker holds its task until the test opens the gate.
std::atomic<int> at_gate{0};
std::atomic<bool> gate_open{false};
void inc_gated(void* const* a) {
  ++at_gate;
  while (!gate_open.load()) std::this_thread::yield();
  inc_native(a);
}
const rt::NativeVersion gated_versions[] = {{"Native", &inc_gated}};
const rt::CeInfo inc_gated_ce{"inc_gated", "OpeningCEI",   false, inc_params, 1,
                              &ivec(),     gated_versions, 1,     &inc_cl};

TEST(Opening, TasksQueuedElsewhereWhileADeviceOpensArePlacedAgainOnceItIsOpen) {
  // The device is expected in a minute, so every task goes to the CPU, which runs one per worker
  // and queues the rest; the device opens now, and the queued ones are offered to the policy
  // again: they are ahead on the device. The begun ones stay on the CPU.
  auto& runtime = rt::Runtime::instance();
  auto p = std::make_unique<opencl::OpenCLPlatform>("soon", opencl::Options::from_env(), 60.0);
  opencl::OpenCLPlatform& soon = *p;
  runtime.add_platform(std::move(p));
  runtime.set_policy(std::make_unique<Earliest>("soon"));
  constexpr std::size_t kSize = 1000;
  auto store = std::make_unique<rt::ProfileStore>();
  store->record(inc_gated_ce, 0, "cpu", kSize * sizeof(int), 0.05);
  runtime.set_profiles(std::move(store));
  const int workers = static_cast<int>(runtime.find_platform("cpu")->workers());
  const int n = workers + 8;
  const int native_before = native_incs.load();
  run_independent(inc_gated_ce, n, kSize, [&] {
    while (at_gate.load() < workers) std::this_thread::yield();  // every worker holds one
    soon.open(opencl::list_devices().at(0).index, [](opencl::OpenCLPlatform&) {});
    runtime.platform_opened(soon);
    gate_open = true;
  });
  runtime.drain();  // kernels are counted after their values are published
  EXPECT_EQ(soon.stats().kernels, 8u);
  EXPECT_EQ(native_incs.load() - native_before, workers);
}

// inc with a native version beside its kernel, kept on the CPU by the policy of the test below.
const rt::CeInfo inc_cheap_ce{"inc_cheap", "OpeningCEI", false, inc_params, 1,
                              &ivec(),     inc_versions, 1,     &inc_cl};

TEST(Opening, ACheapTaskKeptOnTheCpuDoesNotHideTheCostlyOnesQueuedBeforeIt) {
  // As above, with tasks of a second CE queued last, which the policy keeps on the CPU when the
  // device opens (as DynPerf keeps a task there that the CPU runs in microseconds): the costly
  // ones queued before them are still offered to the policy, and move.
  auto& runtime = rt::Runtime::instance();
  auto p = std::make_unique<opencl::OpenCLPlatform>("soon2", opencl::Options::from_env(), 60.0);
  opencl::OpenCLPlatform& soon = *p;
  runtime.add_platform(std::move(p));
  runtime.set_policy(std::make_unique<Earliest>("soon2", &inc_cheap_ce));
  constexpr std::size_t kSize = 1000;
  auto store = std::make_unique<rt::ProfileStore>();
  store->record(inc_gated_ce, 0, "cpu", kSize * sizeof(int), 0.05);
  runtime.set_profiles(std::move(store));
  const int workers = static_cast<int>(runtime.find_platform("cpu")->workers());
  at_gate = 0;
  gate_open = false;
  const int native_before = native_incs.load();
  constexpr int kCheap = 4;
  std::vector<IVec> in(kCheap, iota(kSize, 0)), out(kCheap);
  std::vector<std::unique_ptr<rt::Scope>> scopes;
  for (int i = 0; i < kCheap; ++i) {
    scopes.push_back(std::make_unique<rt::Scope>(in[i]));
    scopes.push_back(std::make_unique<rt::Scope>(out[i]));
  }
  run_independent(inc_gated_ce, workers + 8, kSize, [&] {
    while (at_gate.load() < workers) std::this_thread::yield();  // every worker holds one
    for (int i = 0; i < kCheap; ++i)
      rt::assign(out[i], rt::call<IVec>(inc_cheap_ce, rt::in<IVec>(in[i])));
    soon.open(opencl::list_devices().at(0).index, [](opencl::OpenCLPlatform&) {});
    runtime.platform_opened(soon);
    gate_open = true;
  });
  for (int i = 0; i < kCheap; ++i) EXPECT_EQ(rt::sync_read(out[i]), iota(kSize, 1));
  runtime.drain();                      // kernels are counted after their values are published
  EXPECT_EQ(soon.stats().kernels, 8u);  // the costly ones queued behind the running ones
  EXPECT_EQ(native_incs.load() - native_before, workers + kCheap);
}

}  // namespace
}  // namespace cei::test

int main(int argc, char** argv) {
  setenv("CEI_PLATFORMS", CEI_CPU_ONLY, 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
