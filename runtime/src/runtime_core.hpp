// Runtime::Impl: builds tasks around the Analyzer and hands them to the Scheduler (scheduler.hpp,
// which places them, retries them and re-places them), keeps the task graph's ranks, the
// observers' events, the in-flight accounting that drains and back-pressure use, and the errors
// the program has not seen yet.
#pragma once

#include "analyzer.hpp"
#include "scheduler.hpp"
#include "second_thoughts.hpp"
#include "task_impl.hpp"

#include <cei/rt/runtime.hpp>

#include <array>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace cei::rt {

// The platforms, appended to while tasks run (devices that open in the background): readers
// iterate, without a lock, a prefix whose slots never move; add() is serialized by its own lock.
class PlatformList {
 public:
  static constexpr std::size_t kMax = 256;
  Platform* const* begin() const { return slots_.data(); }
  Platform* const* end() const { return slots_.data() + size_.load(std::memory_order_acquire); }
  std::span<Platform* const> view() const { return {begin(), end()}; }
  // Thread-safe. Throws past kMax platforms.
  void add(Platform* p);

 private:
  std::mutex mu_;
  std::array<Platform*, kMax> slots_{};
  std::atomic<std::size_t> size_{0};
};

class RuntimeCore {
 public:
  RuntimeCore();

  Version* submit(const CeInfo& ce, detail::ArgSpec* args, std::size_t n,
                  const detail::ArgSpec* into);
  Analyzer& analyzer() { return analyzer_; }
  Scheduler& scheduler() { return scheduler_; }

  void observe_submitted(TaskImpl& t, std::span<const Candidate> candidates, std::size_t chosen);
  void observe_replaced(TaskImpl& t, const Platform& from, const Platform& to, double lag);
  void observe_membership(const Platform& p, bool lost);
  void observe_joined(const Platform& p);
  void observe(TaskImpl& t, bool failed);
  void task_done() noexcept;
  // Thread-safe: tasks submitted and not settled.
  std::size_t in_flight() const noexcept;
  // Waits until at most `target` tasks are in flight.
  void wait_in_flight(std::size_t target);
  void barrier();
  void shutdown();

  // ---- failures ----
  FailureSpec resolve_failure(const CeInfo& ce) const;
  // Policy `fail`: printed now, thrown at the program's next sync of anything.
  void report_fatal(TaskImpl& t, const std::exception_ptr& error);
  // A cancelled task with no outputs: thrown at the next barrier.
  void report_at_barrier(const std::exception_ptr& error);
  // After a sync that may have thrown `thrown` (null: it did not): throws the oldest error the
  // program has not seen yet (`at_barrier`: the barrier's ones too).
  void rethrow_unreported(const std::exception_ptr& thrown, bool at_barrier);
  // The oldest error the program has not seen that a CE threw (not a TaskError); null if none.
  std::exception_ptr unreported_thrown();
  // Starts the task's timeout clock for this attempt (no-op without a timeout). Thread-safe.
  void start_timeout(TaskImpl& t, int attempt) { scheduler_.start_timeout(t, attempt); }

  // ---- platforms that open after the start (runtime.hpp's open_in_background / on_demand) ----
  // All thread-safe.
  void open_in_background(Runtime& rt, std::function<void(Runtime&)> open);
  void open_on_demand(std::function<void(Runtime&)> open);
  // Runs the on-demand openers left and waits for the background ones.
  void open_all(Runtime& rt);
  // Waits for the background openers (the on-demand ones stay unopened).
  void wait_background();
  // When the policy is set: whether it sees the graph, and whether its sole platform (only:<p>)
  // is still opening in the background, so that tasks wait for it instead of going elsewhere.
  void note_policy();
  bool stopping() const { return stopping_.load(std::memory_order_acquire); }
  // Whether the policy's sole platform is still opening (tasks wait for it), and whether any
  // opener has yet to run or finish. Thread-safe.
  bool sole_opening() const { return sole_opening_.load(std::memory_order_acquire); }
  bool opening() const { return opening_.load(std::memory_order_acquire); }
  // Whether the policy sees the graph: a task that several platforms can run is then placed once
  // its inputs are ready (Scheduler::place_when_ready). Thread-safe.
  bool sees_graph() const { return sees_graph_.load(std::memory_order_relaxed); }

  // Whether placements are revisited by second thoughts (Scheduler::rethink): on, under a policy
  // that follows forecasts. Thread-safe.
  bool rethinks() const;
  double now_s() const;  // seconds since start. Thread-safe.

  Clock::time_point start;
  std::mutex owned_mu;
  std::vector<std::unique_ptr<Platform>> owned;  // under owned_mu
  PlatformList platforms;
  std::unique_ptr<Policy> policy;
  std::unique_ptr<Profiles> profiles;
  FailureSpec failure_defaults{FailurePolicy::Fail, 0, 0};
  SecondThoughts second_thoughts;  // its threshold set before the first task

 private:
  void note_sole_platform();

  // ---- the graph: ranks, on every run ----
  // Makes t the producer its outputs' readers find, and raises the upward ranks of the unsettled
  // tasks that produce its inputs, and of theirs, kRankBudget tasks in all at most; a task whose
  // priority class rose while it waits ready is queued again (Platform::promote). Thread-safe.
  void link(TaskImpl& t);
  void unlink(TaskImpl& t);  // when t settles. Thread-safe.
  // The forecast duration that ranks count for t: the fastest prediction of its CE on any
  // platform, looked up again every kRankRefresh tasks of the CE. Thread-safe.
  float rank_duration(const TaskImpl& t);
  static constexpr int kRankBudget = 4;
  static constexpr unsigned kRankRefresh = 64;
  // A CE's duration for the ranks, and how often it was asked (rank_duration).
  struct RankSlot {
    std::atomic<const CeInfo*> ce{nullptr};
    std::atomic<const Profiles*> profiles{nullptr};
    std::atomic<float> seconds{0};
    std::atomic<unsigned> uses{0};
  };
  std::array<RankSlot, 64> rank_slots_;

  std::mutex open_mu_;
  std::condition_variable open_cv_;
  std::vector<std::function<void(Runtime&)>> on_demand_;  // under open_mu_
  std::vector<std::thread> background_;                   // under open_mu_
  int background_running_ = 0;                            // under open_mu_
  std::atomic<bool> opening_{false};                      // an opener has not run or not finished
  std::atomic<bool> sole_opening_{false};  // note_sole_platform()'s finding, until opened
  std::atomic<bool> stopping_{false};

  Analyzer analyzer_;
  std::atomic<std::uint64_t> next_task_{1};
  std::size_t max_in_flight_;
  // Tasks in flight are submitted_ - completed_: program threads count the one and workers the
  // other, each on its own cache line, so that no line is written by both sides on every task
  // (one shared counter cost each side a cache miss per task). A program thread looks at
  // completed_ only when its last look, completed_seen_, says the window may be full.
  alignas(64) std::atomic<std::size_t> submitted_{0};
  std::atomic<std::size_t> completed_seen_{0};
  alignas(64) std::atomic<std::size_t> completed_{0};
  alignas(64) std::mutex flight_mu_;
  std::condition_variable flight_cv_;
  // The highest target of the threads in wait_in_flight (0 when none): completions at or below
  // it wake them. Both under flight_mu_ for writes.
  std::atomic<std::size_t> flight_target_{0};
  std::atomic<int> flight_waiters_{0};
  bool stopped_ = false;

  std::mutex errors_mu_;
  std::atomic<bool> any_unreported_{false};
  std::vector<std::exception_ptr> fatal_, at_barrier_;

  std::atomic<bool> sees_graph_{false};

  Scheduler scheduler_{*this};
};

struct Runtime::Impl : RuntimeCore {};

}  // namespace cei::rt
