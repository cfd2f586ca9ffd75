// The executor of CPU tasks: a fixed set of worker threads, one work-stealing deque per worker and
// per priority level (work_stealing.hpp), and one shared inbox per level for threads that are not
// workers (the program's thread submitting). A worker runs the successor its last task made ready
// at once (no queue), then its own deque newest first, then steals oldest first from the inbox and
// the other workers.
//
// Idle workers search for a bounded number of rounds and then sleep on an event count
// (notifier.hpp): no CPU is burnt while there is nothing to run. A push wakes a sleeper only when
// no worker is searching, and the last searcher to find work wakes the next one, so a steady
// stream of tasks makes no system call while a burst still spreads over every worker. (Capping
// the searchers at half the workers, as Go's scheduler does, made fan-out graphs up to 1.5x
// slower per task on 8 and 16 cores. One searcher at a time watching the inbox, exponential
// back-off between rounds, and one spinner with the others asleep, as Eigen's pool: no change
// the H100 machine's 16 vCPUs could tell from their 30% run-to-run spread.)
//
// keep_active(n) leaves the host's cores to others for a while (a device's driver starting in the
// background: on the H100's 16 cores, NVIDIA's opening took 0.30-0.37 s beside 16 busy workers
// and 0.23-0.26 s beside 14): workers from lane n up finish what they hold and then sleep apart,
// not searching, until the count rises again.
//
// Priority is a hint with a level per value from kTopPriority down to 0, and one below 0, as
// Taskflow's levels (the runtime's priorities are classes of upward ranks, task_impl.hpp). A
// worker looking for work takes, level by level from the top, its next job, its own jobs and the
// jobs from outside above the common level (0), and only then steals, level by level; nothing is
// preempted.
//
//   Executor<Job> ex(threads, [](Job* j, int lane) { ... });  // Job has `int priority() const`
//   ex.push(job);   // any thread
//   ex.stop();      // once nothing more is pushed: runs what is queued, joins the workers
#pragma once

#include "notifier.hpp"
#include "spin_lock.hpp"
#include "work_stealing.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace cei::rt {

template <typename Job>
class Executor {
 public:
  static constexpr int kTopPriority = 4;
  static constexpr int kLevels = kTopPriority + 2;
  // The level a priority maps to: 0 (kTopPriority and above, first) ... kTopPriority (0, the
  // common level), kTopPriority + 1 (below 0, last).
  static constexpr int level(int priority) noexcept {
    return priority < 0 ? kLevels - 1 : kTopPriority - std::min(priority, kTopPriority);
  }
  static constexpr int kCommon = level(0);

  // Starts `threads` workers (at least one); `run(job, lane)` runs a job on worker `lane`.
  Executor(std::size_t threads, std::function<void(Job*, int)> run) : run_(std::move(run)) {
    threads = std::max<std::size_t>(threads, 1);
    active_.store(threads, std::memory_order_relaxed);
    workers_.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i)
      workers_.push_back(std::make_unique<Worker>(this, static_cast<int>(i)));
    for (auto& w : workers_) w->thread = std::thread([this, w = w.get()] { loop(*w); });
  }
  ~Executor() { stop(); }
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Thread-safe. On one of this executor's workers the job goes to that worker (its next job if
  // it has none yet, else its own deque); from any other thread, to the shared inbox.
  void push(Job* job) {
    Worker* w = current_;
    const int l = level(job->priority());
    // Before the job can be seen: a worker that skips the level has not seen the job either.
    if (!(used_levels_.load(std::memory_order_relaxed) & (1u << l)))
      used_levels_.fetch_or(1u << l, std::memory_order_seq_cst);
    if (w && w->owner == this) {
      // The slot is for a successor on the common level or above (a lower one must not jump
      // ahead of queued work): it runs on this worker, its inputs in this core's cache. With a
      // device open, the ranks put every chain task above 0; in the deque, searching workers
      // stole each one, and a chain of empty tasks crossed cores at every link (H100, 2-16
      // workers: 1.2-1.3 us per task against 0.6 on one worker).
      if (!w->next && l <= kCommon) {
        w->next = job;
        w->next_level.store(l, std::memory_order_relaxed);
        return;
      }
      w->deque[l].push(job);
    } else {
      std::lock_guard g(inbox_mu_);
      inbox_[l].push(job);
    }
    wake_for_pushed();
  }

  // Thread-safe; a no-op off the workers or without a next job. The calling worker has more to do
  // before it returns to its queues (a device's launches of a whole batch of ready tasks, on
  // NVIDIA's driver and a BLAS library tens of microseconds each): its next job goes to its deque,
  // where idle workers take it. (Kept in the slot, a tiled Cholesky's potrf made ready early in a
  // batch of 50 launches waited 11-27 ms for them, on the critical path, 16 cores idle.)
  static void share_next() {
    Worker* w = current_;
    if (!w || !w->next) return;
    const int l = w->next_level.exchange(-1, std::memory_order_relaxed);
    w->deque[l].push(std::exchange(w->next, nullptr));
    w->owner->wake_for_pushed();
  }

  // Thread-safe; call once nothing more is pushed. Workers finish every queued job, then exit;
  // returns when they have. Not from a worker.
  void stop() {
    stopping_.store(true, std::memory_order_seq_cst);
    parked_.notify_all();  // every worker helps to empty the queues
    notifier_.notify_all();
    for (auto& w : workers_)
      if (w->thread.joinable()) w->thread.join();
  }

  // Thread-safe; immutable.
  std::size_t workers() const noexcept { return workers_.size(); }
  // Thread-safe. From now on only workers 0..n-1 (n at least 1) take jobs from the inbox and from
  // each other; the others run what they hold, then sleep until the count rises.
  void keep_active(std::size_t n) {
    n = std::clamp<std::size_t>(n, 1, workers_.size());
    const std::size_t was = active_.exchange(n, std::memory_order_seq_cst);
    if (was < n) parked_.notify_all();
    if (was > n) notifier_.notify_all();  // the idle ones park now, not at their next wake-up
  }
  // Thread-safe; a snapshot.
  std::size_t active() const noexcept { return active_.load(std::memory_order_relaxed); }
  // Thread-safe; a snapshot: jobs queued and not started (the next-job slots included).
  std::size_t queued() const noexcept {
    std::size_t n = 0;
    for (int l = 0; l < kLevels; ++l) n += inbox_[l].size();
    for (auto& w : workers_) {
      for (auto& d : w->deque) n += d.size();
      n += w->next_level.load(std::memory_order_relaxed) >= 0 ? 1 : 0;
    }
    return n;
  }
  // Thread-safe; a snapshot: jobs queued that run before or with one of `priority` (those on its
  // level and above).
  std::size_t queued_through(int priority) const noexcept {
    const int last = level(priority);
    std::size_t n = 0;
    for (int l = 0; l <= last; ++l) n += inbox_[l].size();
    for (auto& w : workers_) {
      for (int l = 0; l <= last; ++l) n += w->deque[l].size();
      const int next = w->next_level.load(std::memory_order_relaxed);
      n += next >= 0 && next <= last ? 1 : 0;
    }
    return n;
  }
  // Thread-safe; a snapshot: workers running a job now.
  std::size_t running() const noexcept {
    std::size_t n = 0;
    for (auto& w : workers_) n += w->running.load(std::memory_order_relaxed) ? 1 : 0;
    return n;
  }
  // Thread-safe: whether the calling thread is a worker of an executor of this Job type.
  static bool on_worker() noexcept { return current_ != nullptr; }
  // Thread-safe; a snapshot: workers asleep (for tests: idle workers do not spin).
  int sleeping() const noexcept { return sleeping_.load(std::memory_order_relaxed); }
  // Thread-safe; a snapshot: workers parked by keep_active, asleep or about to be (they take no
  // job until woken). A worker still searching when the count fell may take one job first.
  int parked() const noexcept { return parked_count_.load(std::memory_order_seq_cst); }

 private:
  // Rounds of looking at every queue, and time, before an idle worker sleeps: long enough to
  // bridge the gap between two submissions of a steady stream, short enough that idleness costs
  // no CPU.
  static constexpr int kSearchRounds = 64;
  static constexpr std::chrono::microseconds kSearchTime{20};

  struct alignas(kCacheLine) Worker {
    Worker(Executor* e, int l) : owner(e), lane(l) {}
    Executor* owner;
    int lane;
    Job* next = nullptr;              // owner thread only
    std::atomic<int> next_level{-1};  // `next`'s level, -1 when empty: for queued()
    std::atomic<bool> running{false};
    std::array<WorkStealingDeque<Job>, kLevels> deque;
    unsigned victim = 0;  // owner thread only: where stealing starts
    std::thread thread;
  };

  void loop(Worker& w) {
    current_ = &w;
    while (Job* job = next_job(w)) {
      w.running.store(true, std::memory_order_relaxed);
      run_(job, w.lane);
      w.running.store(false, std::memory_order_relaxed);
    }
    current_ = nullptr;
  }

  Job* next_job(Worker& w) {
    // Level by level: the next job first (no other worker can take it, while they can steal the
    // jobs of this worker's deque: a fan-out of ranked tasks would wait here for its siblings),
    // then this worker's own jobs, then, above the common level, jobs from outside. (Only the
    // owner pushes to its deque, so empty() cannot miss an item; it spares pop()'s fence on empty
    // levels. The inbox's lines above the common level are written only when such jobs are
    // pushed, so these looks cost no cache miss while priorities are unused.)
    const int next = w.next ? w.next_level.load(std::memory_order_relaxed) : kLevels;
    const unsigned used = used_levels_.load(std::memory_order_acquire);
    for (int l = 0; l < kLevels; ++l) {
      if (!(used & (1u << l))) continue;  // never pushed to (the next job's level is: pushed)
      if (l == next) {
        w.next_level.store(-1, std::memory_order_relaxed);
        return std::exchange(w.next, nullptr);
      }
      if (!w.deque[l].empty())
        if (Job* job = w.deque[l].pop()) return job;
      if (l < kCommon && !inbox_[l].empty())
        if (Job* job = inbox_[l].steal()) return job;
    }
    return search(w);
  }

  // Null once stopping and nothing is left anywhere.
  Job* search(Worker& w) {
    for (;;) {
      if (!is_active(w)) {
        park(w);
        continue;
      }
      searching_.fetch_add(1, std::memory_order_seq_cst);
      const auto since = std::chrono::steady_clock::now();
      for (int round = 0;; ++round) {
        if (Job* job = steal(w)) {
          // The last searcher to find work hands the search on when more is queued, so queued
          // jobs never wait for a sleeper that no push will wake. (A job pushed after this look
          // sees no searcher and wakes a sleeper itself: the push's fence against the seq_cst
          // fetch_sub.) Waking one when nothing is left cost a chain of tasks a system call each.
          if (searching_.fetch_sub(1, std::memory_order_seq_cst) == 1) hand_on();
          return job;
        }
        if (round % 8 != 7) {
          cpu_relax();
          continue;
        }
        // A sleeper costs the next push a system call and a wake-up: search at least
        // kSearchRounds rounds and kSearchTime, the gap between two submissions of a steady
        // stream on a fast core, or yield-paced rounds on a slow one.
        if (!is_active(w) ||
            (round >= kSearchRounds && std::chrono::steady_clock::now() - since >= kSearchTime))
          break;
        std::this_thread::yield();  // on few cores, let the submitting thread run
      }
      searching_.fetch_sub(1, std::memory_order_seq_cst);
      if (!is_active(w)) {
        hand_on();  // this search was perhaps the one a push counted on
        continue;
      }
      const auto key = notifier_.prepare_wait();
      if (Job* job = steal(w)) {
        notifier_.cancel_wait();
        hand_on();  // the wake-up this worker may have taken was meant for the next job
        return job;
      }
      if (stopping_.load(std::memory_order_seq_cst)) {
        notifier_.cancel_wait();
        return nullptr;
      }
      sleeping_.fetch_add(1, std::memory_order_relaxed);
      notifier_.commit_wait(key);
      sleeping_.fetch_sub(1, std::memory_order_relaxed);
      // Woken for a job, but no longer among the active: the job is another worker's to take.
      if (!is_active(w)) hand_on();
    }
  }

  // After a push: no one asleep, the workers running or searching take the job. A searcher is
  // bound to find it, or to hand the search on (search()): no wake-up either. The sleepers are
  // looked at first: their count changes only when one falls asleep or wakes, while every worker
  // writes the searchers' count twice per job, and reading that line on each push cost the
  // pushing thread a transfer from another core per job.
  void wake_for_pushed() {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // the push before the looks
    if (notifier_.waiters() != 0 && searching_.load(std::memory_order_relaxed) == 0)
      notifier_.notify_one_fenced();
  }

  // Once stopping, every worker is: a count lowered late must not leave one parked at join.
  bool is_active(const Worker& w) const noexcept {
    return static_cast<std::size_t>(w.lane) < active_.load(std::memory_order_seq_cst) ||
           stopping_.load(std::memory_order_seq_cst);
  }
  // Wakes a sleeping worker for what is queued when no one searches. (Parked workers sleep on
  // parked_, so this reaches an active one, or one that hands it on in turn.)
  void hand_on() {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // before the looks at the queues
    if (searching_.load(std::memory_order_relaxed) == 0 && anything_queued())
      notifier_.notify_one_fenced();
  }
  // Sleeps, not searching, while w is not among the active workers.
  void park(Worker& w) {
    const auto key = parked_.prepare_wait();
    if (is_active(w)) return parked_.cancel_wait();
    parked_count_.fetch_add(1, std::memory_order_seq_cst);
    sleeping_.fetch_add(1, std::memory_order_relaxed);
    parked_.commit_wait(key);
    sleeping_.fetch_sub(1, std::memory_order_relaxed);
    parked_count_.fetch_sub(1, std::memory_order_seq_cst);
  }

  // Whether any queue holds a job (a snapshot; the next-job slots are their owners' to run).
  bool anything_queued() const noexcept {
    const unsigned used = used_levels_.load(std::memory_order_acquire);
    for (int l = 0; l < kLevels; ++l) {
      if (!(used & (1u << l))) continue;
      if (!inbox_[l].empty()) return true;
      for (auto& v : workers_)
        if (!v->deque[l].empty()) return true;
    }
    return false;
  }

  // Highest level first; within a level the inbox, then the other workers from a rotating start.
  Job* steal(Worker& w) {
    const std::size_t n = workers_.size();
    const unsigned used = used_levels_.load(std::memory_order_acquire);
    for (int l = 0; l < kLevels; ++l) {
      if (!(used & (1u << l))) continue;
      if (Job* job = inbox_[l].steal()) return job;
      for (std::size_t i = 0; i < n; ++i) {
        Worker& v = *workers_[(w.victim + i) % n];
        if (&v == &w) continue;
        if (Job* job = v.deque[l].steal()) {
          w.victim = static_cast<unsigned>((w.victim + i) % n);
          return job;
        }
      }
    }
    return nullptr;
  }

  static inline thread_local Worker* current_ = nullptr;

  // Each group below on lines of its own, by who writes it how often: a pushing thread that reads
  // a line some worker wrote since pays a transfer from that worker's core (on the H100
  // machine's 16 vCPUs, 320-470 ns), and a push that writes a line every searcher reads makes
  // each of them fetch it again. (With the inbox's lock beside `workers_` and the sleepers'
  // count beside the searchers', one thread pushing empty jobs as fast as it could took 0.37 us
  // per job with 1 worker and 0.51-0.56 with 4-16; apart, 0.21-0.30 at every count.)
  // Read-only while the workers live.
  std::function<void(Job*, int)> run_;
  std::vector<std::unique_ptr<Worker>> workers_;
  // Read by every worker at each round of its search; written at a change of the count and at stop.
  alignas(kCacheLine) std::atomic<std::size_t> active_{0};  // workers from lane active_ up park
  // The levels any job was ever pushed to (bits, never cleared): the looks at each queue skip
  // the others. Written once per level.
  std::atomic<unsigned> used_levels_{0};
  std::atomic<bool> stopping_{false};
  // Written by the pushing thread at each push. The inbox's owner side (push) is whichever
  // non-worker thread holds the lock; steals need none.
  alignas(kCacheLine) SpinLock inbox_mu_;
  std::array<WorkStealingDeque<Job>, kLevels> inbox_;  // each of its ends on a line of its own
  // Written by workers twice per job.
  alignas(kCacheLine) std::atomic<int> searching_{0};
  // Written when a worker falls asleep or wakes (the notifiers keep their waiters' count, read at
  // each push, on a line of its own).
  alignas(kCacheLine) std::atomic<int> sleeping_{0};
  std::atomic<int> parked_count_{0};
  Notifier notifier_;
  Notifier parked_;
};

}  // namespace cei::rt
