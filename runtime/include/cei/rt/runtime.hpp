// The process-wide runtime: its platforms, its Decision Engine policy and profiles, and the hooks
// through which other parts plug in. It starts on first use (the first task) and drains at exit.
//
// Platforms and policies are plugged in by static registration in code linked into the program
// (platforms/opencl, platforms/remote, runtime/decision), so the runtime needs no knowledge of
// them:
//
//   static const bool reg = cei::rt::register_platform_factory("opencl", [](cei::rt::Runtime& rt) {
//     for (auto& dev : find_devices()) rt.add_platform(std::make_unique<OpenCLPlatform>(dev));
//   });
//   static const bool pol = cei::rt::register_policy_factory([](cei::rt::Runtime& rt) {
//     return make_policy_from_env(rt);     // CEI_POLICY=dynperf|dynen|static|only:<p>
//   });
//
// At start the runtime calls every platform factory (the CPU platform's first, then by name), then
// the policy factory (if none is registered, or it returns null, tasks go to the first platform
// that can run them), and finally sets cei::wait_on / cei::barrier's hooks.
#pragma once

#include <cei/rt/observer.hpp>
#include <cei/rt/platform.hpp>
#include <cei/rt/policy.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <span>

namespace cei::rt {

class Runtime;

using PlatformFactory = std::function<void(Runtime&)>;
using PolicyFactory = std::function<std::unique_ptr<Policy>(Runtime&)>;

// Called once when the runtime starts; returns true so it can initialise a static.
bool register_platform_factory(const char* name, PlatformFactory f);
bool register_policy_factory(PolicyFactory f);

// Platforms report to the observers of observer.hpp through these (submission and finish are
// reported by the runtime itself). `observing()` is a cheap check to skip building events.
bool observing() noexcept;
// lane: the worker thread or device queue within the platform.
void observe_task_started(Task& t, const Platform& p, int lane);
void observe_transfer(const TransferEvent& e);
void observe_task_energy(std::uint64_t task, const Platform& p, double joules, const char* source);
void observe_platform_energy(const Platform& p, const PlatformEnergy& e);
void observe_group_closed(const GroupReport& g);

class Runtime {
 public:
  // The runtime, started on the first call.
  static Runtime& instance();
  // The runtime if it has started, else null (host syncs before any task cost nothing).
  static Runtime* if_started() noexcept;

  // Thread-safe: a platform may be added while tasks run (see open_in_background).
  void add_platform(std::unique_ptr<Platform> p);
  // For a factory whose platforms are slow to open (an OpenCL driver's start, contexts, program
  // builds): `open` adds them with add_platform, later. Thread-safe.
  //  - open_in_background: on a thread of its own, from now on. Meanwhile tasks run on the
  //    platforms already added, except a task that none of them can run, and every task while
  //    the policy's only:<platform> is not added yet: those wait until the openers are done.
  //  - open_on_demand: on the thread of the first task that no platform added can run (never, in
  //    a run that needs none of these platforms); that task waits for it.
  // An opener may stop early once stopping() is true (the runtime drains at exit).
  void open_in_background(std::function<void(Runtime&)> open);
  void open_on_demand(std::function<void(Runtime&)> open);
  bool stopping() const;  // thread-safe
  // Waits until the platforms opening in the background are added (not the on-demand ones).
  // Thread-safe; never from inside an opener.
  void wait_for_platforms() const;
  // Every platform, after wait_for_platforms() (on-demand ones are listed only once a task has
  // opened them). The span stays valid while platforms are added.
  std::span<Platform* const> platforms() const;
  Platform* find_platform(std::string_view name) const;

  // Replaces the launch policy; the platforms left to open on demand for it open first.
  void set_policy(std::unique_ptr<Policy> p);
  Policy* policy() const;
  void set_profiles(std::unique_ptr<Profiles> p);
  Profiles* profiles() const;  // null until someone sets them

  // Seconds since the runtime started (the time base of forecasts).
  double now_s() const;
  std::size_t tasks_in_flight() const;
  // Heap held in the runtime's pools of task and version blocks and of task argument arrays (in
  // use or free for reuse): it follows the peak number of tasks in flight, not the number of tasks
  // run.
  std::size_t pooled_bytes() const;
  // Waits for every task submitted so far (no host copies), then for the platforms' late reports
  // of their energy (Platform::settle_energy); called at exit.
  void drain();

  // A platform reports that it is gone (device lost, node unreachable): it gets no more tasks,
  // and the scheduler places its unfinished ones (their inputs are still held) again through the
  // policy. Results it delivers later are dropped. Thread-safe.
  void platform_failed(Platform& p);
  // A platform that reported itself gone (platform_failed) is usable again (a node that answers
  // again): the scheduler may place new tasks on it. Thread-safe.
  void platform_readmitted(Platform& p);
  // A platform added (add_platform) while the program runs, as a new member of the run (a node
  // that joined: docs/remote.md, "Nodes that join"): said in the log, the summary and the trace,
  // and the tasks queued elsewhere are offered to the policy again as when a device opens.
  void platform_joined(Platform& p);
  // A platform that was a candidate while it opened (a device opening in the background) reports
  // that it is open: the tasks queued on the other platforms were placed by forecasts that
  // expected it at another time, so the scheduler offers them to the policy again (under policies
  // by forecasts, as second thoughts). Thread-safe.
  void platform_opened(Platform& p);
  // For CEs whose CeInfo::failure leaves a field at Default/-1 (from the launch config's
  // [failure] table at start).
  void set_failure_defaults(FailureSpec f);
  FailureSpec failure_defaults() const;

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  Runtime();
  Impl* impl_;
};

}  // namespace cei::rt
