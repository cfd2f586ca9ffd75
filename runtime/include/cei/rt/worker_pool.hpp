// The runtime's executor of CPU tasks for a platform that runs them on host threads: a fixed set
// of workers with work-stealing deques and the tasks' priorities as levels (docs/executor.md).
// Part of the platform SDK (docs/platforms.md).
//
//   WorkerPool pool(4, [this](TaskContext* t, int lane) { run(*t, lane); });
//   pool.push(context(*task));   // once its inputs are ready: any thread
//   pool.stop();                 // at shutdown: runs what is queued, joins the workers
#pragma once

#include <cei/rt/task_context.hpp>

#include <cstddef>
#include <functional>
#include <memory>

namespace cei::rt {

class WorkerPool {
 public:
  // Starts `threads` workers (at least one); run(task, lane) runs a task on worker `lane`.
  WorkerPool(std::size_t threads, std::function<void(TaskContext*, int)> run);
  ~WorkerPool();  // stop()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues t (higher Task::priority first). A worker of this pool that pushes keeps t (its next
  // task, or its own deque, where others may steal it); other threads queue it for any worker.
  // Thread-safe; not after stop().
  void push(TaskContext& t);
  // Once nothing more is pushed: runs what is queued, joins the workers. Idempotent; not from a
  // worker.
  void stop();
  std::size_t workers() const noexcept;  // constant
  // Tasks queued at priority `priority` or above (they run before one of that priority), and
  // tasks running now. Thread-safe snapshots.
  std::size_t queued_through(int priority) const noexcept;
  std::size_t running() const noexcept;
  // Workers taking tasks from others now (all but those leave_cores parks). Thread-safe snapshot.
  std::size_t active() const noexcept;
  // Whether the calling thread is a worker of any pool. Thread-safe.
  static bool on_worker() noexcept;
  // On a worker about to do more before it takes its next task (a platform launching a batch of
  // tasks inline): that task, if it kept one, is left to the other workers. Thread-safe; a no-op
  // on other threads.
  static void share_next();
  // Leaves `cores` of the process's usable cores to other threads (the runtime's, while a
  // device's driver starts): every pool, now and later, keeps at most usable cores - `cores`
  // workers (at least one) taking tasks; the others finish theirs and sleep. 0 ends it.
  // Thread-safe.
  static void leave_cores(std::size_t cores);

 private:
  void leave(std::size_t cores);  // this pool's part of leave_cores
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cei::rt
