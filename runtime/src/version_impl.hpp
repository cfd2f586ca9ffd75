// The Data Manager's unit: one value of one datum, published once and read by any number of
// tasks (platform.hpp's Version). Subscribers are kept inline for the common single-subscriber
// case so that the per-task path allocates nothing here.
#pragma once

#include "spin_lock.hpp"

#include <cei/rt/platform.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace cei::rt {

class TaskImpl;

// The tasks whose priority class rose while queued ready, found by one raise (RuntimeCore::link):
// one per task visited at most.
struct Promoted {
  static constexpr std::size_t kMax = 8;
  std::array<TaskPtr, kMax> tasks;
  std::size_t n = 0;
};

// True when `p` is the only reference left, with the accesses of every holder that let go of
// its own ordered before this thread's next ones, so the object may be moved out or updated in
// place. use_count() alone is a relaxed load that orders nothing: a task that just read the value
// could overlap the write. Copying and dropping the pointer are acq_rel updates of the same count,
// and the drop comes after the check, so it acquires every release the check saw.
template <class T>
bool last_reference(const std::shared_ptr<T>& p) {
  std::shared_ptr<T> probe = p;
  return probe.use_count() == 2;
}

class VersionImpl final : public Version, public std::enable_shared_from_this<VersionImpl> {
 public:
  enum class Storage : std::uint8_t { Owned, HostAlias };

  // A value still to be produced by a task.
  // `variable`: the program's text for it (Version::variable), a literal that outlives the runtime.
  static std::shared_ptr<VersionImpl> pending(const TypeOps& t, std::uint64_t datum,
                                              std::uint32_t number, const char* variable = nullptr);
  // A value that exists now: owned storage (a captured argument) or the program's own object,
  // read in place (a host alias: never written, never freed by the runtime).
  static std::shared_ptr<VersionImpl> ready(const TypeOps& t, std::uint64_t datum,
                                            std::uint32_t number, void* storage, Storage s,
                                            const char* variable = nullptr);

  VersionImpl(const TypeOps& t, std::uint64_t datum, std::uint32_t number, const char* variable);
  ~VersionImpl() override;

  const TypeOps& type() const override { return *type_; }
  std::uint64_t datum_id() const override { return datum_; }
  std::uint32_t number() const override { return number_; }
  const char* variable() const override { return variable_; }
  State state() const override { return state_.load(std::memory_order_acquire); }
  std::exception_ptr error() const override;
  void on_ready(std::function<void()> cb) override;
  void* host() override { return host_.load(std::memory_order_acquire); }
  void ensure_host(std::function<void(std::exception_ptr)> done) override;
  std::shared_ptr<Replica> replica_on(const Platform& p) override;
  std::vector<std::shared_ptr<Replica>> replicas() override;
  void add_replica(std::shared_ptr<Replica> r) override;
  void drop_replica(const Platform& p) override;
  std::size_t bytes() const override;
  void publish_host(void* storage) override;
  void publish_replica(std::shared_ptr<Replica> r) override;
  void fail(std::exception_ptr e) override;

  // The task that produces this version (0: the program).
  std::uint64_t producer = 0;
  // The unsettled task that produces this version, for the ranks (RuntimeCore::link): a reader
  // submitted before it settles raises its upward rank to the producer's forecast plus the
  // reader's rank, and then the ranks of the producer's own producers, `budget` tasks in all at
  // most, depth first (a task queued ready whose priority class rose is appended to `promoted`). Forgotten when the version is
  // settled, and by the producer when it settles first: under lock_, so a raise never reaches a
  // task that is gone. Thread-safe.
  void set_producer(TaskImpl* t);
  void raise_producer(float reader_rank, int& budget, Promoted& promoted);
  void forget_producer(const TaskImpl* t);

  bool aliases_host() const { return storage_ == Storage::HostAlias; }
  // Hands the owned host storage to the caller (an inout task reusing it in place); the caller
  // guarantees that nothing else can read this version any more. Null if there is none. bytes()
  // keeps reporting the size the value had: the task's profile is recorded by it afterwards.
  void* take_storage();
  // What bytes() reports while neither the host nor a replica holds the value: the Analyzer sets
  // it on an inout's new version to the size of the value it updates, so that forecasts of tasks
  // reading it before it is produced ask the profiles at the size it will have (0: unknown).
  // Thread-safe.
  void expect_bytes(std::size_t b) { expected_bytes_.store(b, std::memory_order_relaxed); }

  // api.hpp's retain/release: references held by the program (Pending, assign).
  void handle_retain() noexcept { handles_.fetch_add(1, std::memory_order_relaxed); }
  void handle_release() noexcept;
  // Returns a raw handle (one reference) for the program.
  Version* to_handle();
  // Only the program's single handle refers to this version: its value may be moved out.
  bool only_one_handle() const {
    return handles_.load(std::memory_order_acquire) == 1 && last_reference(held_by_handles_);
  }

 private:
  // Under lock_, on a Pending version; unlocks, then runs the subscribers. A second producer (the
  // late result of an attempt that timed out or whose platform was lost) is dropped before this.
  void set_state(State s);

  const TypeOps* type_;
  std::uint64_t datum_;
  std::uint32_t number_;
  const char* variable_;
  std::atomic<State> state_{State::Pending};
  Storage storage_ = Storage::Owned;
  SpinLock lock_;
  std::atomic<int> handles_{0};
  std::atomic<void*> host_{nullptr};
  std::atomic<std::size_t> expected_bytes_{0};
  std::exception_ptr error_;
  std::function<void()> first_subscriber_;
  std::vector<std::function<void()>> more_subscribers_;
  std::vector<std::shared_ptr<Replica>> replicas_;
  // Non-null while a fetch to the host is in flight: who else asked for it meanwhile.
  std::unique_ptr<std::vector<std::function<void(std::exception_ptr)>>> fetch_waiters_;
  std::shared_ptr<VersionImpl> held_by_handles_;
  TaskImpl* producer_task_ = nullptr;  // under lock_
};

inline VersionImpl* impl(Version* v) {
  return static_cast<VersionImpl*>(v);
}

// Counts the versions reading the program's object at `host` in place (HostAlias), and wakes
// sync()/scope ends waiting for it to have none.
void host_alias_created(const void* host);
void host_alias_released(const void* host);

}  // namespace cei::rt
