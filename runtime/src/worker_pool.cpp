// The SDK's WorkerPool over the executor of this library: Executor<TaskContext>, whose jobs'
// priority() is final in TaskContext, so the executor reads it without a virtual call.
#include "executor.hpp"

#include <cei/rt/worker_pool.hpp>

namespace cei::rt {

struct WorkerPool::Impl {
  Impl(std::size_t threads, std::function<void(TaskContext*, int)> run)
      : executor(threads, std::move(run)) {}
  Executor<TaskContext> executor;
};

WorkerPool::WorkerPool(std::size_t threads, std::function<void(TaskContext*, int)> run)
    : impl_(std::make_unique<Impl>(threads, std::move(run))) {}

WorkerPool::~WorkerPool() {
  stop();
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

bool WorkerPool::on_worker() noexcept {
  return Executor<TaskContext>::on_worker();
}

}  // namespace cei::rt
