#include "cpu_platform.hpp"

#include <cei/rt/decision/energy_report.hpp>
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/native.hpp>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

namespace cei::rt {

CpuPlatform::CpuPlatform(Runtime& rt, PlatformConfig config)
    : rt_(rt),
      name_(config.name),
      config_(std::move(config)),
      meter_(MeterSampler::open_for(config_)),
      executor_(config_.cores > 0 ? static_cast<std::size_t>(config_.cores) : usable_cores(),
                [this](TaskContext* t, int lane) { run(*t, lane); }) {}

CpuPlatform::~CpuPlatform() {
  shutdown();
}

void CpuPlatform::shutdown() {
  executor_.stop();
  // Every task ran: a last sample makes every figure final, before the run summary.
  if (auto meter = std::move(meter_)) report_platform_energy(*this, *meter, meter->finish());
}

// One pointer: the input waiter's subscriptions keep it without an allocation.
struct CpuPlatform::Ready {
  CpuPlatform* cpu;
  void operator()(Task& t) const { cpu->make_ready(context(t)); }
};

void CpuPlatform::submit(TaskPtr task) {
  TaskContext& t = context(*task);  // alive until settled: the runtime holds it
  if (!t.inputs().until_ready(t, Ready{this})) make_ready(t);
}

void CpuPlatform::make_ready(TaskContext& t) {
  executor_.push(t);
}

bool CpuPlatform::withdraw(Task& task) {
  TaskContext& t = context(task);
  std::lock_guard g(withdrawn_mu_);
  // Only a task in the queues (or on its way there) leaves exactly one entry behind; one whose
  // inputs are pending would be pushed by their countdown, which a new attempt here resets. A
  // promoted one has two, and the one reached second could begin the task's next attempt.
  const bool promoted = std::any_of(promoted_.begin(), promoted_.end(),
                                    [&t](const Promoted& p) { return p.task.get() == &t; });
  if (t.inputs().waiting() || promoted || !t.withdraw()) return false;
  withdrawn_.push_back(t.keep_alive());
  withdrawn_count_.fetch_add(1, std::memory_order_release);
  return true;
}

void CpuPlatform::promote(Task& task) {
  TaskContext& t = context(task);
  // Waiting for its inputs: pushed at its new priority once they are ready. An input away from
  // the host: its entry comes back after the fetch (fetch_inputs), none to add.
  if (t.inputs().waiting()) return;
  for (const auto& a : t.args())
    if (a.in && !a.in->host()) return;
  {
    std::lock_guard g(withdrawn_mu_);
    const int attempt = t.attempt();
    if (attempt == 0) return;  // settled, or between attempts
    promoted_.push_back({t.keep_alive(), attempt});
    withdrawn_count_.fetch_add(1, std::memory_order_release);
  }
  executor_.push(t);
}

CpuPlatform::Entry CpuPlatform::promoted_entry(TaskContext& t) {
  TaskPtr keep;
  std::lock_guard g(withdrawn_mu_);
  auto it = std::find_if(promoted_.begin(), promoted_.end(),
                         [&t](const Promoted& p) { return p.task.get() == &t; });
  if (it == promoted_.end()) return Entry::Plain;
  // The first entry reached begins the attempt promoted; any other is stale (begun, or an
  // attempt since: a retry, perhaps on another platform, is not this entry's to begin).
  if (it->attempt > 0 && it->attempt == t.attempt() && t.begin(it->attempt)) {
    it->attempt = 0;
    return Entry::Begun;
  }
  keep = std::move(it->task);  // may destroy the task once the lock is released
  promoted_.erase(it);
  withdrawn_count_.fetch_sub(1, std::memory_order_release);
  return Entry::Stale;
}

bool CpuPlatform::drop_withdrawn(TaskContext& t) {
  TaskPtr keep;
  {
    std::lock_guard g(withdrawn_mu_);
    auto it = std::find_if(withdrawn_.begin(), withdrawn_.end(),
                           [&t](const TaskPtr& w) { return w.get() == &t; });
    if (it == withdrawn_.end()) return false;
    keep = std::move(*it);
    withdrawn_.erase(it);
    withdrawn_count_.fetch_sub(1, std::memory_order_release);
  }
  return true;  // `keep` may destroy the task here
}

void CpuPlatform::fetch_inputs(TaskContext& t) {
  if (!t.inputs().until_on_host(t, Ready{this})) make_ready(t);
}

void CpuPlatform::run(TaskContext& t, int lane) {
  // Entries of withdrawn attempts are interchangeable with the task's live one: whichever comes
  // first is dropped, so the live attempt runs from the last, pushed once its inputs were ready.
  // A promoted task runs from the first of its entries reached.
  Entry entry = Entry::Plain;
  if (withdrawn_count_.load(std::memory_order_acquire) > 0) {
    if (drop_withdrawn(t)) return;
    entry = promoted_entry(t);
    if (entry == Entry::Stale) return;
  }
  if (entry == Entry::Plain && !t.inputs().fetched() && !t.begin()) {
    drop_withdrawn(t);  // withdrawn while this worker took it
    return;
  }
  auto& args = t.args();
  for (auto& a : args) {
    if (!a.in) continue;
    if (auto e = a.in->error()) return t.finish(e);  // a failed input: do not run
    if (!a.in->host()) {
      if (t.inputs().fetched())
        return t.finish(
            std::make_exception_ptr(std::runtime_error("could not bring an input to the host")));
      return fetch_inputs(t);
    }
  }
  const int attempt = t.attempt();
  const CeInfo& ce = t.ce();
  // A task with a timeout may be settled while its CE still runs: keep what the CE reads alive.
  const bool timed = t.failure().timeout_ms > 0;
  TaskPtr keep_task;
  std::vector<VersionPtr> keep_inputs;
  if (timed) {
    keep_task = t.keep_alive();
    for (auto& a : args)  // an inout's old value is copied before the CE starts
      if (a.dir == Dir::In) keep_inputs.push_back(a.in);
  }
  const bool in_place = !timed && !t.keeps_inputs();
  constexpr std::size_t kInline = 16;
  const std::size_t n = args.size();
  void* inline_ptrs[kInline];
  void* inline_fresh[kInline];
  std::vector<void*> heap;
  void** ptrs = inline_ptrs;
  void** fresh = inline_fresh;
  if (n > kInline) {
    heap.resize(2 * n);
    ptrs = heap.data();
    fresh = heap.data() + n;
  }
  auto& tm = t.timing();
  t.take_input_bytes();
  // Bound now, by what has been measured by the time it starts (PicksVersion).
  const int version = t.bind_version(*this);
  std::fill(fresh, fresh + n, nullptr);
  Clock::time_point start{}, end{};
  MeterSampler::RunId run = 0;
  std::exception_ptr thrown;
  auto drop_fresh = [&] {
    for (std::size_t i = 0; i < n; ++i)
      if (fresh[i]) args[i].type->destroy(fresh[i]);
  };
  try {
    for (std::size_t i = 0; i < n; ++i) {
      TaskArg& a = args[i];
      switch (a.dir) {
        case Dir::In:
          ptrs[i] = a.in->host();
          break;
        case Dir::Out:
          ptrs[i] = fresh[i] = a.type->create();
          break;
        case Dir::InOut: {
          // Nothing else can read the old value: update it in place instead of copying.
          void* s = in_place ? t.take_input(i) : nullptr;
          if (!s) {
            s = fresh[i] = a.type->create();
            a.type->copy(s, a.in->host());
          }
          ptrs[i] = fresh[i] = s;
          break;
        }
      }
    }
    if (observing()) observe_task_started(t, *this, lane);
    if (timed) t.start_timeout(attempt);
    if (meter_) run = meter_->begin();
    start = Clock::now();
    // Dropped (its significance, or a budget): its inout values, copied above, are published
    // as they were.
    if (t.quality() != Quality::Dropped) invoke_native(ce, static_cast<std::size_t>(version), ptrs);
    end = Clock::now();
    end_run(run, t.id(), start, end);
  } catch (...) {
    end = Clock::now();
    end_run(run, t.id(), start, end);  // the CE threw: it ran until now
    drop_fresh();
    thrown = std::current_exception();
  }
  // Settled once out of the handler, which holds the exception until it is left: the program may
  // observe it, and let it go, as soon as the task is settled.
  if (thrown) {
    if (!t.claim(attempt)) return;
    tm.start = start == Clock::time_point{} ? end : start;
    tm.end = end;
    return t.threw(std::move(thrown));
  }
  const bool committed = t.commit(attempt, [&] {
    tm.start = start;
    tm.end = end;
    account_energy(tm);
    for (std::size_t i = 0; i < n; ++i)
      if (fresh[i]) args[i].out->publish_host(fresh[i]);
  });
  if (!committed) drop_fresh();  // timed out meanwhile: a late result
}

}  // namespace cei::rt
