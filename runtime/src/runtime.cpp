#include "first_feasible.hpp"
#include "host_wait.hpp"
#include "pool.hpp"
#include "runtime_core.hpp"
#include "task_group.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_error.hpp>
#include <cei/rt/trace/log.hpp>
#include <cei/rt/trace/observers.hpp>
#include <cei/rt/worker_pool.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace cei::rt {

namespace {

struct Factories {
  std::mutex mu;
  std::map<std::string, PlatformFactory> platforms;
  PolicyFactory policy;
};
Factories& factories() {
  static auto* f = new Factories;  // never destroyed: registrations run during static init
  return *f;
}

std::atomic<Runtime*> started{nullptr};

// The observers (observer.hpp) as they were when the runtime started: read for every event,
// so one immutable snapshot and a flag instead of a shared list.
std::shared_ptr<const ObserverList> observer_snapshot;
std::atomic<bool> any_observer{false};

template <typename F>
void for_observers(F&& f) {
  if (!any_observer.load(std::memory_order_acquire)) return;
  for (auto& o : *observer_snapshot) f(*o);
}

std::size_t env_size(const char* name, std::size_t fallback) {
  const char* s = std::getenv(name);
  if (!s || !*s) return fallback;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  return (end && *end == '\0' && v > 0) ? static_cast<std::size_t>(v) : fallback;
}

// Ends the program with `e` as the current exception: std::terminate's handler prints its type
// and what(), as for an exception that escapes main.
[[noreturn]] void terminate_with(const std::exception_ptr& e) noexcept {
  try {
    std::rethrow_exception(e);
  } catch (...) {
    std::terminate();
  }
}

void drain_at_exit() {
  static std::atomic<bool> done{false};
  if (done.exchange(true)) return;
  if (Runtime* rt = started.load()) {
    rt->drain();
    rt->impl().shutdown();
    for_observers([](Observer& o) { o.run_finished(); });
    // A CE's exception that the program never observed ends it, as it ends the sequential
    // program, where it escaped the call. (A TaskError has no such twin: its line on stderr,
    // printed when the task failed, is all.)
    if (auto e = rt->impl().unreported_thrown()) terminate_with(e);
  }
}

// exit() from a CE on a worker: the sequential program ends there, with that status; draining
// would wait for the very task that called exit, for ever. on_exit, not atexit: it has the status.
void drain_on_exit(int status, void*) {
  if (WorkerPool::on_worker()) {
    std::fflush(nullptr);
    std::_Exit(status);
  }
  drain_at_exit();
}

// The main thread's exit destroys its thread_local objects before any static object or atexit
// function: the runtime drains there, and stops the platforms still opening in the background,
// while every library is intact. A driver loaded after the start (PoCL, and the LLVM it loads)
// registers its exit-time destructors after drain_at_exit, so they would run first, under the
// feet of a device still opening or still running tasks. drain_at_exit stays registered for an
// exit from another thread.
struct DrainFirstAtExit {
  ~DrainFirstAtExit() { drain_at_exit(); }
};

}  // namespace

bool register_platform_factory(const char* name, PlatformFactory f) {
  auto& fs = factories();
  std::lock_guard g(fs.mu);
  fs.platforms[name] = std::move(f);
  return true;
}

bool observing() noexcept {
  return any_observer.load(std::memory_order_acquire);
}

void observe_task_started(Task& t, const Platform& p, int lane) {
  impl(&t)->lane = lane;
  for_observers([&](Observer& o) { o.task_started(t, p, lane); });
}

void observe_transfer(const TransferEvent& e) {
  for_observers([&](Observer& o) { o.transfer(e); });
}

void observe_task_energy(std::uint64_t task, const Platform& p, double joules, const char* source) {
  for_observers([&](Observer& o) { o.task_energy(task, p, joules, source); });
}

void observe_platform_energy(const Platform& p, const PlatformEnergy& e) {
  for_observers([&](Observer& o) { o.platform_energy(p, e); });
}

void observe_group_closed(const GroupReport& g) {
  for_observers([&](Observer& o) { o.group_closed(g); });
}

bool register_policy_factory(PolicyFactory f) {
  auto& fs = factories();
  std::lock_guard g(fs.mu);
  fs.policy = std::move(f);
  return true;
}

// ---- RuntimeCore ----

// The window is small enough that the tasks in it stay in the caches: a program thread far ahead
// of the workers left them every task's memory cold (on the 2-core VM, a window of 65,536 made
// empty tasks 1.2-2.6x slower per task than 4,096: bench/overhead/README.md), and large enough
// that the workers never starve meanwhile (the program thread resumes with half of it queued).
RuntimeCore::RuntimeCore()
    : start(Clock::now()), max_in_flight_(env_size("CEI_MAX_IN_FLIGHT", std::size_t{1} << 12)) {}

Version* RuntimeCore::submit(const CeInfo& ce, detail::ArgSpec* args, std::size_t n,
                             const detail::ArgSpec* into) {
  if (submitted_.load(std::memory_order_relaxed) -
          completed_seen_.load(std::memory_order_relaxed) >=
      max_in_flight_) {
    completed_seen_.store(completed_.load(std::memory_order_acquire), std::memory_order_relaxed);
    if (in_flight() >= max_in_flight_) wait_in_flight(max_in_flight_ / 2);
  }
  auto t = std::allocate_shared<TaskImpl>(PoolAllocator<TaskImpl>{}, *this,
                                          next_task_.fetch_add(1, std::memory_order_relaxed), ce,
                                          n + (ce.result ? 1 : 0), resolve_failure(ce));
  Version* result = analyzer_.build_args(*t, args, n, into);
  t->self = t;
  submitted_.fetch_add(1, std::memory_order_relaxed);
  link(*t);
  if (TaskGroup* g = TaskGroup::current())
    g->hold(*t);  // planned with the rest of its group (cei::EnergyBudget, cei::AccuracyRatio)
  else
    scheduler_.dispatch(*t);
  return result;
}

void RuntimeCore::link(TaskImpl& t) {
  // Upward ranks (HEFT's, StarPU dmdas's) from the forecasts, kept as the program submits: a new
  // task raises its producers, and theirs, a few tasks up (kRankBudget), under each version's
  // own lock. (Ranks raised through the whole graph under one lock that every settlement took made
  // a chain of empty tasks 3-4x dearer per task, 2-core VM; 0/1 ranks, "a dependant is known",
  // ordered nothing on one platform.)
  t.linked = true;
  t.dur_s = rank_duration(t);
  t.upward_rank_s.store(t.dur_s, std::memory_order_relaxed);
  for (auto& a : t.args())
    if (a.out) impl(a.out.get())->set_producer(&t);
  // At most one task promoted per task visited (no thread_local: in a shared library each access
  // is a call).
  Promoted promoted;
  static_assert(kRankBudget <= static_cast<int>(Promoted::kMax));
  int budget = kRankBudget;
  for (auto& a : t.args())
    if (a.in) impl(a.in.get())->raise_producer(t.dur_s, budget, promoted);
  for (std::size_t i = 0; i < promoted.n; ++i)
    impl(promoted.tasks[i].get())
        ->queued_on.load(std::memory_order_acquire)
        ->promote(*promoted.tasks[i]);
}

void RuntimeCore::unlink(TaskImpl& t) {
  t.linked = false;
  for (auto& a : t.args())
    if (a.out) impl(a.out.get())->forget_producer(&t);
}

float RuntimeCore::rank_duration(const TaskImpl& t) {
  const CeInfo& ce = t.ce();
  const Profiles* pr = profiles.get();
  // The CE's slot: a few probes from its hash, taken by the first CE that finds it free. A CE
  // that finds none (more CEs than slots) is looked up every time.
  RankSlot* slot = nullptr;
  const std::size_t h = reinterpret_cast<std::uintptr_t>(&ce) >> 4;
  for (std::size_t i = 0; i < 4 && !slot; ++i) {
    RankSlot& s = rank_slots_[(h + i) % rank_slots_.size()];
    const CeInfo* owner = s.ce.load(std::memory_order_acquire);
    if (owner == nullptr && s.ce.compare_exchange_strong(owner, &ce, std::memory_order_acq_rel))
      owner = &ce;
    if (owner == &ce) slot = &s;
  }
  if (slot) {
    // Counted without a read-modify-write: the program's thread is usually the only one here,
    // and a miscount only moves the next look-up.
    const unsigned uses = slot->uses.load(std::memory_order_relaxed);
    slot->uses.store(uses + 1, std::memory_order_relaxed);
    if (uses % kRankRefresh != 0 && slot->profiles.load(std::memory_order_acquire) == pr)
      return slot->seconds.load(std::memory_order_relaxed);
  }
  float seconds = 1e-3f;
  if (pr) {
    double bytes = 0;
    for (const auto& a : t.args())
      if (a.in) bytes += static_cast<double>(a.in->bytes());
    double best = -1;
    const auto see = [&](const Platform& p, int version) {
      const double s = pr->predict(ce, version, p.name(), bytes).seconds;
      if (best < 0 || s < best) best = s;
    };
    for (Platform* p : platforms) {
      if (!p->can_run(ce)) continue;
      const Capabilities caps = p->capabilities();
      if (caps.has(Capabilities::Kernels))
        see(*p, Task::kernel_version(t.quality()));
      else if (!caps.has(Capabilities::PicksVersion))
        see(*p, 0);
      else
        for (std::size_t v = 0; v < ce.nversions; ++v) see(*p, static_cast<int>(v));
    }
    if (best > 0) seconds = static_cast<float>(best);
  }
  if (slot) {
    slot->seconds.store(seconds, std::memory_order_relaxed);
    slot->profiles.store(pr, std::memory_order_release);
  }
  return seconds;
}

FailureSpec RuntimeCore::resolve_failure(const CeInfo& ce) const {
  FailureSpec f = ce.failure;
  if (f.policy == FailurePolicy::Default) f.policy = failure_defaults.policy;
  if (f.retries < 0) f.retries = failure_defaults.retries;
  if (f.timeout_ms < 0) f.timeout_ms = failure_defaults.timeout_ms;
  return f;
}

void RuntimeCore::report_fatal(TaskImpl& t, const std::exception_ptr& error) {
  std::fprintf(stderr, "cei: task %llu failed and its failure policy is 'fail': %s\n",
               static_cast<unsigned long long>(t.id()), describe_failure(t.ce(), error).c_str());
  std::lock_guard g(errors_mu_);
  fatal_.push_back(error);
  any_unreported_.store(true, std::memory_order_release);
}

void RuntimeCore::report_at_barrier(const std::exception_ptr& error) {
  std::lock_guard g(errors_mu_);
  at_barrier_.push_back(error);
  any_unreported_.store(true, std::memory_order_release);
}

void RuntimeCore::rethrow_unreported(const std::exception_ptr& thrown, bool at_barrier) {
  if (!any_unreported_.load(std::memory_order_acquire)) {
    if (thrown) std::rethrow_exception(thrown);
    return;
  }
  std::exception_ptr first = thrown;
  {
    std::lock_guard g(errors_mu_);
    if (thrown) {  // the program sees this one now
      std::erase(fatal_, thrown);
      std::erase(at_barrier_, thrown);
    } else if (!fatal_.empty()) {
      first = fatal_.front();
      fatal_.erase(fatal_.begin());
    }
    if (at_barrier) {
      if (!first && !at_barrier_.empty()) first = at_barrier_.front();
      at_barrier_.clear();
      fatal_.clear();  // a barrier reports one error: the others came from the same run of tasks
    }
    any_unreported_.store(!fatal_.empty() || !at_barrier_.empty(), std::memory_order_release);
  }
  if (first) std::rethrow_exception(first);
}

std::exception_ptr RuntimeCore::unreported_thrown() {
  std::lock_guard g(errors_mu_);
  for (const auto* errors : {&fatal_, &at_barrier_})
    for (const auto& e : *errors) {
      try {
        std::rethrow_exception(e);
      } catch (const TaskError&) {
      } catch (...) {
        return e;
      }
    }
  return nullptr;
}

void RuntimeCore::observe_submitted(TaskImpl& t, std::span<const Candidate> candidates,
                                    std::size_t chosen) {
  std::vector<Dependency> deps;
  for (auto& a : t.args())
    if (a.in)
      if (auto producer = static_cast<VersionImpl&>(*a.in).producer)
        deps.push_back({producer, data_name(*a.in)});
  for_observers(
      [&](Observer& o) { o.task_submitted(t, deps, candidates, chosen, policy->name()); });
}

void RuntimeCore::observe_replaced(TaskImpl& t, const Platform& from, const Platform& to,
                                   double lag) {
  for_observers([&](Observer& o) { o.task_replaced(t, from, to, lag); });
}

void RuntimeCore::observe_membership(const Platform& p, bool lost) {
  for_observers([&](Observer& o) { o.platform_membership(p, lost); });
}

void RuntimeCore::observe_joined(const Platform& p) {
  for_observers([&](Observer& o) { o.platform_joined(p); });
}

void RuntimeCore::observe(TaskImpl& t, bool failed) {
  // A dropped task ran nothing: its time would teach the profiles that the version is free.
  if (profiles && !failed && t.platform && t.quality() != Quality::Dropped) {
    auto& tm = t.timing();
    if (tm.input_bytes < 0) t.take_input_bytes();  // claimed and settled without commit
    const double in_bytes = tm.input_bytes;
    const double run_s = std::chrono::duration<double>(tm.end - tm.start).count();
    profiles->record(t.ce(), tm.version_index, t.platform->name(), in_bytes, run_s);
    // Placed by forecasts: was it as late as to revisit the placements made by the same beliefs?
    if (t.forecast_exec_s > 0 &&
        second_thoughts.ran(
            *t.platform, t.forecast_exec_s,
            profiles->predict(t.ce(), tm.version_index, t.platform->name(), in_bytes).seconds,
            run_s))
      scheduler_.rethink(*t.platform);
  }
  if (t.linked) unlink(t);
  scheduler_.settled(t);
  if (t.platform)
    for_observers([&](Observer& o) { o.task_finished(t, *t.platform, t.lane, failed); });
}

void RuntimeCore::task_done() noexcept {
  // seq_cst against wait_in_flight's announcement: either this sees the waiter, or the waiter's
  // look at the count sees this completion.
  completed_.fetch_add(1, std::memory_order_seq_cst);
  if (flight_waiters_.load(std::memory_order_seq_cst) == 0) return;
  // Only completions at or below what a waiter waits for wake it, not every task.
  if (in_flight() > flight_target_.load(std::memory_order_seq_cst)) return;
  std::lock_guard g(flight_mu_);
  flight_cv_.notify_all();
}

std::size_t RuntimeCore::in_flight() const noexcept {
  // Completions first: a task is counted submitted before it can complete, so the submissions
  // read after them include theirs.
  const std::size_t done = completed_.load(std::memory_order_seq_cst);
  return submitted_.load(std::memory_order_seq_cst) - done;
}

void RuntimeCore::wait_in_flight(std::size_t target) {
  flush_group();  // the tasks a group holds count in flight: they must go for the count to fall
  std::unique_lock g(flight_mu_);
  // The target before the count: a completion that sees the waiter sees its target too.
  if (target > flight_target_.load(std::memory_order_relaxed))
    flight_target_.store(target, std::memory_order_seq_cst);
  flight_waiters_.fetch_add(1, std::memory_order_seq_cst);
  flight_cv_.wait(g, [&] { return in_flight() <= target; });
  if (flight_waiters_.fetch_sub(1, std::memory_order_relaxed) == 1)
    flight_target_.store(0, std::memory_order_relaxed);
}

void RuntimeCore::barrier() {
  wait_in_flight(0);
  std::exception_ptr thrown;
  try {
    analyzer_.sync_all();
  } catch (...) {
    thrown = std::current_exception();
  }
  rethrow_unreported(thrown, true);
}

void RuntimeCore::shutdown() {
  if (stopped_) return;
  stopped_ = true;
  stopping_.store(true, std::memory_order_release);
  std::vector<std::thread> openers;
  {
    std::lock_guard g(open_mu_);
    openers.swap(background_);
  }
  for (auto& th : openers) th.join();  // what they opened is added, and shut down below
  scheduler_.stop();
  for (Platform* p : platforms) p->shutdown();
}

void PlatformList::add(Platform* p) {
  std::lock_guard g(mu_);
  const std::size_t n = size_.load(std::memory_order_relaxed);
  if (n == kMax) throw std::length_error("cei: more than " + std::to_string(kMax) + " platforms");
  slots_[n] = p;
  size_.store(n + 1, std::memory_order_release);
}

namespace {
void run_opener(const std::function<void(Runtime&)>& open, Runtime& rt) {
  try {
    open(rt);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cei: opening platforms failed: %s\n", e.what());
  }
}
}  // namespace

void RuntimeCore::open_in_background(Runtime& rt, std::function<void(Runtime&)> open) {
  std::lock_guard g(open_mu_);
  // A driver's start is work on the host's cores (NVIDIA's: its own threads, and NVML's beside
  // it), and it decides when the device takes tasks: beside 16 busy CPU workers on the H100's 16
  // cores, the GPU opened in 0.30-0.37 s instead of 0.23-0.26 s, and DynPerf's matmul 2048/256
  // took 0.35-0.42 s against 0.30-0.34 s with 14 workers. The CPU platform's workers leave it a
  // core per 8 (at most 2) until the openers are done.
  if (background_running_++ == 0) WorkerPool::leave_cores(std::min(usable_cores() / 8, 2u));
  opening_.store(true, std::memory_order_release);
  background_.emplace_back([this, &rt, open = std::move(open)] {
    run_opener(open, rt);
    std::lock_guard done(open_mu_);
    if (--background_running_ == 0) {
      WorkerPool::leave_cores(0);
      sole_opening_.store(false, std::memory_order_release);
      opening_.store(!on_demand_.empty(), std::memory_order_release);
    }
    open_cv_.notify_all();
  });
}

void RuntimeCore::open_on_demand(std::function<void(Runtime&)> open) {
  std::lock_guard g(open_mu_);
  on_demand_.push_back(std::move(open));
  opening_.store(true, std::memory_order_release);
}

void RuntimeCore::open_all(Runtime& rt) {
  std::unique_lock g(open_mu_);
  // Run under the lock: a task dispatched meanwhile that no platform can run waits for these
  // instead of failing.
  for (auto& open : on_demand_) run_opener(open, rt);
  on_demand_.clear();
  open_cv_.wait(g, [&] { return background_running_ == 0; });
  opening_.store(false, std::memory_order_release);
}

void RuntimeCore::wait_background() {
  std::unique_lock g(open_mu_);
  open_cv_.wait(g, [&] { return background_running_ == 0; });
}

void RuntimeCore::note_policy() {
  sees_graph_.store(policy && policy->sees_graph(), std::memory_order_relaxed);
  note_sole_platform();
}

void RuntimeCore::note_sole_platform() {
  const std::string_view sole = policy ? policy->sole_platform() : std::string_view{};
  if (sole.empty()) return;
  std::lock_guard g(open_mu_);
  if (background_running_ == 0) return;
  for (Platform* p : platforms)
    if (p->name() == sole) return;
  sole_opening_.store(true, std::memory_order_release);
}

// ---- Runtime ----

Runtime::Runtime() : impl_(new Impl) {}

Runtime& Runtime::instance() {
  // Never destroyed: tasks may still be finishing while static destructors run; the platforms
  // are drained and stopped by an atexit handler instead.
  static Runtime* rt = [] {
    auto* r = new Runtime;
    std::map<std::string, PlatformFactory> platform_factories;
    PolicyFactory policy_factory;
    {
      auto& fs = factories();
      std::lock_guard g(fs.mu);
      platform_factories = fs.platforms;
      policy_factory = fs.policy;
    }
    if (auto cpu = platform_factories.find("cpu"); cpu != platform_factories.end()) {
      cpu->second(*r);
      platform_factories.erase(cpu);
    }
    for (auto& [name, make] : platform_factories) make(*r);
    if (policy_factory) r->impl_->policy = policy_factory(*r);
    try {
      const FailureDefaults& f = launch_config().failure;
      r->impl_->failure_defaults = {f.policy, f.retries, f.timeout_ms};
      r->impl_->second_thoughts.set_threshold(launch_config().policy.second_thoughts);
    } catch (const ConfigError&) {
      // Reported by whoever reads the config for its own part; failures keep the built-in default.
    }
    if (!r->impl_->policy) r->impl_->policy = std::make_unique<FirstFeasible>();
    r->impl_->note_policy();
    install_observers_from_env();
    observer_snapshot = observers();
    any_observer.store(!observer_snapshot->empty(), std::memory_order_release);
    cei::detail::wait_hook = [](const void* address) { detail::sync(address, true); };
    cei::detail::barrier_hook = [] { Runtime::instance().impl().barrier(); };
    on_exit(drain_on_exit, nullptr);
    if (::gettid() == ::getpid()) {  // the main thread: its thread_local objects die at exit only
      thread_local DrainFirstAtExit drain_first;
      (void)drain_first;
    }
    started.store(r);
    return r;
  }();
  return *rt;
}

Runtime* Runtime::if_started() noexcept {
  return started.load(std::memory_order_acquire);
}

void Runtime::add_platform(std::unique_ptr<Platform> p) {
  Platform* raw = p.get();
  if (!raw->prices_set()) {
    try {
      if (const PlatformConfig* c = launch_config().find(raw->name()))
        raw->set_prices({c->prices.per_gb, c->prices.per_hour});
    } catch (const ConfigError&) {
      // Reported by the policy factory, which stops the program; the platform charges nothing.
    }
  }
  {
    std::lock_guard g(impl_->owned_mu);
    impl_->owned.push_back(std::move(p));
  }
  impl_->platforms.add(raw);
  // What `cei-info` lists, as this run found it.
  log().info("platform {} ({}): {} task(s) at once", raw->name(), raw->kind(), raw->workers());
}

void Runtime::open_in_background(std::function<void(Runtime&)> open) {
  impl_->open_in_background(*this, std::move(open));
}

void Runtime::open_on_demand(std::function<void(Runtime&)> open) {
  impl_->open_on_demand(std::move(open));
}

bool Runtime::stopping() const {
  return impl_->stopping();
}

void Runtime::wait_for_platforms() const {
  impl_->wait_background();
}

std::span<Platform* const> Runtime::platforms() const {
  wait_for_platforms();
  return impl_->platforms.view();
}

Platform* Runtime::find_platform(std::string_view name) const {
  for (Platform* p : platforms())
    if (p->name() == name) return p;
  return nullptr;
}

void Runtime::set_policy(std::unique_ptr<Policy> p) {
  impl_->policy = p ? std::move(p) : std::make_unique<FirstFeasible>();
  // Platforms left to open on demand were left for the launch policy, which would not use them
  // (only:cpu, PoCL under DynPerf): the program's own policy may, so they open now.
  impl_->open_all(*this);
  impl_->note_policy();
}
Policy* Runtime::policy() const {
  return impl_->policy.get();
}
void Runtime::set_profiles(std::unique_ptr<Profiles> p) {
  impl_->profiles = std::move(p);
}
Profiles* Runtime::profiles() const {
  return impl_->profiles.get();
}

double Runtime::now_s() const {
  return impl_->now_s();
}

std::size_t Runtime::tasks_in_flight() const {
  return impl_->in_flight();
}

std::size_t Runtime::pooled_bytes() const {
  return pool_reserved_bytes.load(std::memory_order_relaxed);
}

void Runtime::drain() {
  impl_->wait_in_flight(0);
  for (Platform* p : impl_->platforms) p->settle_energy();
}

void Runtime::platform_failed(Platform& p) {
  impl_->scheduler().platform_lost(p);
}

void Runtime::platform_readmitted(Platform& p) {
  impl_->scheduler().platform_readmitted(p);
}

void Runtime::platform_joined(Platform& p) {
  log().warn("platform {} joined the run: it may be given tasks from now on", p.name());
  impl_->observe_joined(p);
  platform_opened(p);
}

void Runtime::platform_opened(Platform& p) {
  // A device can open while the runtime starts (an opener thread begins with the platforms,
  // before the policy is set): no task is placed yet then, so there is nothing to revisit.
  if (!if_started()) return;
  impl_->scheduler().platform_opened(p);
}

void Runtime::set_failure_defaults(FailureSpec f) {
  impl_->failure_defaults = f;
}
FailureSpec Runtime::failure_defaults() const {
  return impl_->failure_defaults;
}

// ---- api.hpp ----

namespace detail {

void retain(Version* v) noexcept {
  impl(v)->handle_retain();
}
void release(Version* v) noexcept {
  impl(v)->handle_release();
}

Version* submit(const CeInfo& ce, ArgSpec* args, std::size_t n, const ArgSpec* into) {
  return Runtime::instance().impl().submit(ce, args, n, into);
}

bool start_at_load() noexcept {
  try {
    (void)Runtime::instance();
  } catch (...) {
    // Met again, and reported, at the first CE call.
  }
  return true;
}

void assign(const TypeOps& type, void* target, const void* root, Version* v) {
  Runtime::instance().impl().analyzer().assign(type, target, root, v);
}

void get(Version* v, void* dst) {
  void* value = nullptr;
  auto& core = Runtime::instance().impl();
  flush_group();  // v may be a held task's
  try {
    if (dst) {
      value = wait_host(*v);
    } else {  // a void CE: its task has settled, no value to bring to the host
      wait_ready(*v);
      if (auto e = v->error()) std::rethrow_exception(e);
    }
  } catch (...) {
    core.analyzer().delivered(impl(v)->producer);
    core.rethrow_unreported(std::current_exception(), false);
  }
  core.rethrow_unreported(nullptr, false);
  if (!dst) return;
  auto* vi = impl(v);
  if (vi->only_one_handle() && !vi->aliases_host())
    v->type().move(dst, value);
  else
    v->type().copy(dst, value);
}

}  // namespace detail

void before_throw() {
  if (!Runtime::if_started() || WorkerPool::on_worker()) return;
  flush_group();
  Runtime::instance().impl().barrier();
}

namespace detail {

void sync(const void* root, bool write) {
  Runtime* rt = Runtime::if_started();
  if (!rt) return;
  flush_group();  // the writers or in-place readers it waits for may be held tasks
  std::exception_ptr thrown;
  try {
    rt->impl().analyzer().sync(root, write);
  } catch (...) {
    thrown = std::current_exception();
  }
  rt->impl().rethrow_unreported(thrown, false);
}

void scope_enter(const void* root) noexcept {
  // A new variable at an address that an earlier one used: its data are not this one's.
  // Forgetting waits for the tasks reading them in place, which a group may hold.
  flush_group();
  if (Runtime* rt = Runtime::if_started()) rt->impl().analyzer().forget(root);
}

void scope_exit(const void* root) noexcept {
  flush_group();  // as scope_enter
  if (Runtime* rt = Runtime::if_started()) rt->impl().analyzer().forget(root);
}

}  // namespace detail
}  // namespace cei::rt
