// The SDK's WorkerPool over the executor of this library: Executor<TaskContext>, whose jobs'
// priority() is final in TaskContext, so the executor reads it without a virtual call.
#include "executor.hpp"

#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/worker_pool.hpp>

#include <mutex>
#include <vector>

namespace cei::rt {

static_assert(Executor<TaskContext>::kTopPriority == TaskContext::kMaxPriority,
              "a level per priority class");

struct WorkerPool::Impl {
  Impl(std::size_t threads, std::function<void(TaskContext*, int)> run)
      : executor(threads, std::move(run)) {}
  Executor<TaskContext> executor;
};

namespace {
// Every pool alive, and the cores they leave to others (leave_cores).
struct Pools {
  std::mutex mu;
  std::vector<WorkerPool*> all;
  std::size_t left = 0;
};
Pools& pools() {
  static auto* p = new Pools;  // never destroyed: pools may stop during static destruction
  return *p;
}
}  // namespace

void WorkerPool::leave(std::size_t cores) {
  const std::size_t usable = usable_cores();
  impl_->executor.keep_active(cores == 0 ? workers() : cores < usable ? usable - cores : 1);
}

WorkerPool::WorkerPool(std::size_t threads, std::function<void(TaskContext*, int)> run)
    : impl_(std::make_unique<Impl>(threads, std::move(run))) {
  auto& ps = pools();
  std::lock_guard g(ps.mu);
  ps.all.push_back(this);
  if (ps.left > 0) leave(ps.left);
}

WorkerPool::~WorkerPool() {
  {
    auto& ps = pools();
    std::lock_guard g(ps.mu);
    std::erase(ps.all, this);
  }
  stop();
}

void WorkerPool::leave_cores(std::size_t cores) {
  auto& ps = pools();
  std::lock_guard g(ps.mu);
  ps.left = cores;
  for (WorkerPool* p : ps.all) p->leave(cores);
}

void WorkerPool::push(TaskContext& t) {
  impl_->executor.push(&t);
}

void WorkerPool::stop() {
  impl_->executor.stop();
}

std::size_t WorkerPool::workers() const noexcept {
  return impl_->executor.workers();
}

std::size_t WorkerPool::queued_through(int priority) const noexcept {
  return impl_->executor.queued_through(priority);
}

std::size_t WorkerPool::running() const noexcept {
  return impl_->executor.running();
}

std::size_t WorkerPool::active() const noexcept {
  return impl_->executor.active();
}

bool WorkerPool::on_worker() noexcept {
  return Executor<TaskContext>::on_worker();
}

void WorkerPool::share_next() {
  Executor<TaskContext>::share_next();
}

}  // namespace cei::rt
