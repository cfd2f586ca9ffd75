// The OpenCL platform's internals: the device, its queue, its programs, the device-resident
// replicas (the memory manager) and the tasks in flight.
//
// Threads: a task is launched (its commands enqueued) by whichever thread makes it ready — the
// submitting thread when its inputs are ready at submission, else the thread that publishes its
// last input — one launch at a time under launch_mu. OpenCL event callbacks complete tasks on the
// platform's dispatcher thread ("cei-opencl0"), never on the driver's: the driver's thread only
// hands them over. Naive mode blocks by definition, so its launches always run on the dispatcher.
#pragma once

#include "cl.hpp"
#include "devices.hpp"
#include "dispatcher.hpp"
#include "outcome.hpp"
#include "programs.hpp"
#include "staging.hpp"

#include <cei/expr.hpp>
#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/input_waiter.hpp>
#include <cei/rt/task_context.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cei::opencl {

class DeviceReplica;

using rt::data_name;

// A task from submission to the completion of its kernel.
struct Running {
  rt::TaskPtr task;
  // The runtime's attempt this entry runs; null for a task that is not the runtime's (a platform
  // driven directly), which has no attempts and is never withdrawn.
  rt::TaskContext* context = nullptr;
  int attempt = 0;
  rt::InputWaiter inputs;
  // The window of work ahead on the device (Impl::enter), under hold_mu: the kernel's forecast,
  // whether it counts in the window, and whether it left the held queue (not held again).
  double exec_s = 0;
  bool ahead = false, released = false;
  bool begun = false;  // its attempt began (by the launching thread; the window let it through)
  std::vector<std::shared_ptr<DeviceReplica>> pinned;  // buffers its commands use
  // A copy of the task's: to or from the host, with the version it carries (for the trace), or
  // between buffers on the device (renaming: host_bytes 0).
  struct Copy {
    Event event;
    std::size_t host_bytes = 0;
    std::uint64_t datum = 0;
    std::uint32_t number = 0;
    const char* variable = nullptr;
  };
  std::vector<Copy> writes, reads;
  int queue = 0;          // index of the compute queue that runs its kernel: its lane in the trace
  std::uint64_t seq = 0;  // its kernel's place on that queue (in-order queues: completion order)
  // Completed by a later kernel's callback: that kernel's device end and the host time it was
  // seen, from which this kernel's end is placed on the host's clock.
  rt::Clock::time_point anchor_host{};
  cl_ulong anchor_device = 0;
  std::vector<Mem> buffers;
  std::vector<Staging::Chunk> staged;  // pinned memory of its uploads: back to the pool when done
  std::vector<std::pair<Mem, std::size_t>> scratch;  // naive mode: back to the pool when done
  Event kernel;  // or the event a function implementation returned
  // A function implementation: the barrier its commands follow (the start of its work) and how
  // long the host spent in the call.
  Event begin;
  double host_call_s = 0;
  std::shared_ptr<Outcome> outcome;  // of the kernel: shared by the outputs' replicas
  std::shared_ptr<Outcome> fault;    // Options::fail_kernel's injected failure, its root
  Event slot;  // its place under the cap on kernels in flight: completed when the kernel is
  std::uint64_t bytes_in = 0, bytes_out = 0;
  bool recorded = false;
};

// One argument of a kernel or function: a buffer (mem, with the value's extents) or a scalar
// input's host bytes.
struct Bound {
  const void* value = nullptr;
  std::size_t size = 0;
  cl_mem mem = nullptr;
  std::array<std::int64_t, 3> extents{0, 0, 0};
};

struct OpenCLPlatform::Impl : std::enable_shared_from_this<OpenCLPlatform::Impl> {
  Impl(OpenCLPlatform& self, std::string name, const Device& dev, Options options);
  ~Impl();

  OpenCLPlatform& self;
  std::string name;
  Device device;
  Options options;
  Context context;
  // Kernels go to the compute queues (one out-of-order queue, or several in-order ones); copies
  // to two in-order queues of their own, one per direction, like a GPU's copy engines: a copy
  // then runs beside kernels instead of in line with them (NVIDIA's driver runs an out-of-order
  // queue in order), and a device that could run every early input write before the first
  // kernel (PoCL) runs them one at a time, beside the kernels. All chained by events.
  // The compute queues, then the write queue, then the read queue; then, when the compute queue
  // runs out of order, an in-order queue for function implementations (function_queue).
  std::vector<Queue> queues;
  std::unique_ptr<Staging> staging;  // pinned memory for the host's copies (Options::pinned)
  std::size_t ncompute = 0;
  bool in_order = false;  // compute queues run their commands in order
  std::atomic<std::size_t> next_queue{0};
  Programs programs;
  Dispatcher dispatcher;

  std::mutex launch_mu;  // one launch at a time: kernel arguments are set on shared cl_kernels
  // What a launch needs of a kernel that is the same for each of its tasks, worked out once.
  struct KernelPlan {
    std::array<expr::ExprList, 4> sizes;      // global, local, offset, result size
    bool reads_elements = false;              // an expression reads an argument's elements
    std::shared_ptr<const std::string> what;  // "kernel K on NAME", for failures
  };
  std::map<const rt::OpenCLImpl*, KernelPlan> plans;  // under launch_mu

  // Memory manager: every buffer that backs a replica of ours.
  struct Resident {
    std::weak_ptr<rt::Version> version;
    std::size_t bytes;
    std::uint64_t last_use;
    int pins = 0;
    bool evicting = false;
  };
  mutable std::mutex mem_mu;
  std::map<DeviceReplica*, Resident> resident;
  std::size_t used = 0, cap = 0;
  std::uint64_t tick = 0;
  int evictions_in_flight = 0;
  // Buffers no value uses any more, by size: reused instead of allocating per task. They count
  // against the cap and are the first thing freed when memory runs short.
  std::multimap<std::size_t, Mem> pool;
  std::size_t pooled = 0;
  std::vector<std::shared_ptr<Running>> deferred;  // waiting for device memory
  std::atomic<int> running{0};                     // kernels enqueued, not complete
  // The cap on kernels running at once: kernel k waits on the slot of kernel k - max_inflight, a
  // user event completed by that kernel's completion callback whatever its status (waiting on
  // the kernel's own event would spread its failure to unrelated tasks). Every task stays
  // enqueued, chained by events, so the forecasts count the capped ones as queued work. The
  // slots of the last max_inflight kernels, under launch_mu.
  std::size_t max_inflight = 0;  // 0: no cap (one in-order queue runs one kernel at a time)
  unsigned host_cores = 0;       // a CPU device's compute units: the host cores its kernels use
  std::deque<Event> last_kernels;
  void free_slot(Running& r);

  mutable std::mutex stats_mu;
  Stats stats;
  // Profiled command spans {start, end, is_transfer}, folded into stats.exposed_transfer_s.
  struct Span {
    cl_ulong start, end;
    bool transfer;
  };
  std::vector<Span> spans;
  double folded_exposed_s = 0;
  std::uint64_t folded_peak = 0;
  void add_span(std::pair<cl_ulong, cl_ulong> span, bool transfer);  // under stats_mu
  double exposed_transfer_s() const;                                 // under stats_mu
  std::uint64_t peak_kernels() const;                                // under stats_mu
  // On an in-order queue a task's work starts once the work before it ended: the start of
  // `span` (a task's on `queue`) moved past that end. A function implementation's span begins
  // with its barrier, which NVIDIA's driver ends as it is submitted, maybe behind milliseconds of
  // queued kernels: a tiled Cholesky's CLBlast GEMMs measured 2.5-4.6 ms for 0.14-0.3 of work,
  // and DynPerf sent them to the CPU (23 ms each). In each queue's order (a race between two
  // completions of one queue would only blur a timing).
  cl_ulong after_previous(int queue, std::pair<cl_ulong, cl_ulong> span);
  // Per compute queue: the end of its last task's work (device clock).
  std::unique_ptr<std::atomic<cl_ulong>[]> queue_end;
  std::atomic<int> tasks_in_flight{0};
  std::map<const rt::CeInfo*, double> kernel_s_per_byte;  // forecasts, per CE
  DecisionHooks hooks;
  TraceHooks trace;

  void post(std::function<void()> fn) { dispatcher.post(std::move(fn)); }
  // A compute queue for a kernel whose inputs are `reps`, and its index: an in-order queue one of
  // them is written on, else the next in turn.
  std::pair<cl_command_queue, int> queue(const std::vector<std::shared_ptr<DeviceReplica>>& reps);
  cl_command_queue write_queue() { return queues[ncompute].get(); }
  cl_command_queue read_queue() { return queues[ncompute + 1].get(); }
  // Commands reach the device only when their queue is flushed, and a flush costs ~4-6 us on
  // NVIDIA's driver even for a queue with nothing new: a launch marks the queues it enqueued on
  // and flush() flushes just those, once per batch. Atomic, not under launch_mu: the dispatcher's
  // flush then never waits for a launch in progress (nor wakes the launching thread's unlock).
  std::unique_ptr<std::atomic<bool>[]> unflushed;  // per queue
  void enqueued(cl_command_queue q);
  void flush();
  // Completions reported per flush (in-order compute queues): on such a queue a kernel completes
  // only after every kernel enqueued on it before, so one callback, on the last kernel a flush
  // sends, completes them all, in queue order. A callback per kernel cost the launching thread
  // ~25 us per task on NVIDIA's driver (the tiny chain ran at 3.1x hand-written chained code).
  // The flush itself is then left to the dispatcher, once per burst of launches, so that a
  // program submitting task after task gets a few flushes and callbacks, not one per task.
  bool batched = false;
  std::mutex report_mu;                              // held only to hand over `unreported`
  std::vector<std::shared_ptr<Running>> unreported;  // per compute queue: its last kernel not
                                                     // flushed yet; under report_mu
  std::vector<std::uint64_t> enqueued_kernels;       // per compute queue; under launch_mu
  std::mutex done_mu;
  std::vector<std::deque<std::shared_ptr<Running>>> in_queue;  // per compute queue, in order;
                                                               // under done_mu
  std::atomic<bool> flush_posted{false};
  // A launch found the device idle: its batch is flushed at once (its callback still comes from
  // the dispatcher), since the dispatcher's wake-up delayed the first kernel by ~150 us on an
  // H100. A callback at once too made the tiny chain 1.9x slower than hand-written code, not
  // 1.5x: its kernels finish faster than they are submitted, so the device is idle at each.
  std::atomic<bool> flush_now{false};
  // clFlush of the queues launches marked, but `except`; thread-safe. OpenCL lets a command wait
  // on an event of another queue only once that queue is flushed, and NVIDIA's driver holds to it:
  // a command on queue q that may wait on other queues' events is enqueued after
  // flush_marked(q).
  void flush_marked(cl_command_queue except = nullptr);
  void flush_soon();  // after a batch of launches: now, or (batched) once on the dispatcher
  // Completes, in queue order, every kernel of `last`'s queue up to `last` (which ended with
  // `status`): those a later flush's callback did not complete already.
  // `seen`: when the driver reported `last` complete.
  void complete_through(const std::shared_ptr<Running>& last, cl_int status,
                        rt::Clock::time_point seen);
  // Calls fn on the dispatcher once `e` completes (or on a thread in run_here()), with its
  // execution status and when the driver reported it (the dispatcher's turn comes later: a
  // kernel's end is placed on the host's clock from the report); fn must not block, and posts
  // what it would enqueue. Returns a handle for run_here().
  struct Callback;
  std::weak_ptr<Callback> on_complete(cl_event e,
                                      std::function<void(cl_int, rt::Clock::time_point)> fn);
  // Waits on this thread for the callback's event, then runs the callback here, unless the
  // driver ran it already (whoever takes a callback out of the registry runs it).
  static void run_here(const std::weak_ptr<Callback>& callback);
  // Drivers need not call back for a command that fails (PoCL 3.1 never does, whether it failed
  // itself or because one it waits for did): once any command has failed, the callbacks whose
  // event ended in error are run here, after each launch; while shutdown() waits, always
  // (`always`), since a failure with no callback at all leaves no other trace.
  std::atomic<bool> failures_seen{false};
  void sweep_failures(bool always = false);
  // Once the queues are finished: runs or frees every callback of this platform not run yet.
  void settle_callbacks();

  void submit(rt::TaskPtr t);
  // Second thoughts (Platform::withdraw): a task waits on the host, where it can be taken back,
  // once the device holds kAheadS of forecast work (at least min_ahead kernels): enough to keep
  // it busy across a completion callback and a launch, and a queue of minutes of work never sits
  // where nothing can recall it. A kernel with no measured rate yet counts nothing toward it.
  static constexpr double kAheadS = 10e-3;
  std::size_t min_ahead = 2;  // set by the constructor: two kernels per one that may run at once
  std::mutex hold_mu;
  // Ready, waiting for room ahead; under hold_mu. The longest upward rank (as the task was held)
  // goes first, the oldest among equals: a tiled Cholesky's panel (trsm, syrk) feeding the next
  // potrf passes the trailing update's GEMMs held before it, which a device queue in readiness
  // order ran first. Key: {-upward rank, arrival}.
  std::map<std::pair<float, std::uint64_t>, std::shared_ptr<Running>> held;
  std::uint64_t arrivals = 0;  // under hold_mu
  double ahead_s = 0;          // forecasts of the kernels let through; under hold_mu
  std::size_t ahead_n = 0;     // how many; under hold_mu
  // GPUs (in-order queues) hold nothing back: with the hold, matmul 2048/256 on an H100 took
  // 5-6.5 s on the GPU alone instead of 0.08, a Cholesky 16384/16 ran at 338 GFlop/s instead of
  // 1,396: NVIDIA's driver called a held window's completion back 20 ms after its kernel ended
  // when the host made no other OpenCL call meanwhile. Their queued kernels stay where nothing
  // can recall them, in the order they became ready.
  bool hold = true;           // set by the constructor
  bool window_full() const {  // under hold_mu
    return hold && ahead_n >= min_ahead && ahead_s >= kAheadS;
  }
  double forecast_exec_s(const rt::Task& t) const;  // the kernel's measured rate, 0 if none
  // Whether r may be enqueued now (begun): false when it waits in `held`, or its attempt was
  // settled meanwhile (timed out, lost: dropped here). Under launch_mu.
  bool enter(const std::shared_ptr<Running>& r);
  // r's kernel left the device (done, failed) or never reached it: room for held tasks, which
  // are launched.
  void leave(Running& r);
  // Takes back t if it waits in `held` and its attempt has not begun. Thread-safe.
  bool withdraw(rt::Task& t);
  void settle(Running& r, std::exception_ptr e);  // the verdict on r's attempt
  // r's inputs are all ready: launch it on this thread if allowed, else on the dispatcher.
  void inputs_ready(const std::shared_ptr<Running>& r);
  // Enqueues r, then the tasks that this makes ready on this thread (on any device), then
  // flushes each queue touched once.
  void launch(const std::shared_ptr<Running>& r);
  void try_launch(const std::shared_ptr<Running>& r);  // under launch_mu
  // Whether every OpenCL implementation of ce can run here (its kernels built); may build.
  bool buildable(const rt::CeInfo& ce);
  // A function implementation's queue: in order, so that a library's commands, which take no
  // wait list, follow the barrier ahead of them. `kq`: the compute queue the task was given.
  cl_command_queue function_queue(cl_command_queue kq) {
    return in_order ? kq : queues.back().get();
  }
  // Calls r's function implementation after a barrier on `wait`; returns the event that
  // completes its work. Under launch_mu.
  cl_event call_function(Running& r, const rt::OpenCLImpl& cl, cl_command_queue kq,
                         const std::vector<cl_event>& wait, const std::vector<Bound>& args);
  // `seen`: when the kernel was reported complete (its end on the host's clock, unless a later
  // kernel's report placed it).
  void complete(const std::shared_ptr<Running>& r, cl_int status,
                rt::Clock::time_point seen = rt::Clock::now());
  void record(Running& r, rt::Clock::time_point seen = rt::Clock::now());  // timings, stats
  void fail(const std::shared_ptr<Running>& r, std::exception_ptr e);
  void retry_deferred();

  std::shared_ptr<DeviceReplica> replica_of(rt::Version& v);
  Mem allocate(std::size_t bytes);
  void recycle(Mem m, std::size_t bytes);  // a buffer no command uses any more
  // recycle() under mem_mu: a buffer the cap leaves no room for goes to `dropped`, which the
  // caller releases after unlocking (a driver call).
  void pool_locked(Mem m, std::size_t bytes, Mem& dropped);
  void release_replica(DeviceReplica* rep, Mem m, std::size_t bytes);
  // True when `need` more bytes fit under the cap (evicting as needed); false: r was deferred.
  bool admit(std::size_t need, const std::shared_ptr<Running>& r);
  // Keeps rep's buffer for r's commands until r completes; `of`: the version a replica just made
  // holds (eviction finds it there), set under the same lock.
  void pin(const std::shared_ptr<DeviceReplica>& rep, Running& r, const rt::VersionPtr& of = {});
  void unpin(Running& r);
};

// A value resident on the device: its buffer and the event that writes it.
class DeviceReplica : public rt::Replica, public std::enable_shared_from_this<DeviceReplica> {
 public:
  DeviceReplica(std::shared_ptr<OpenCLPlatform::Impl> impl, Mem mem, Event written,
                std::shared_ptr<Outcome> outcome, const rt::TypeOps& type, std::size_t bytes,
                std::array<std::int64_t, 3> extents, const rt::Version& of);
  ~DeviceReplica() override;
  rt::Platform& owner() override { return impl_->self; }
  void to_host(void* dst, std::function<void(std::exception_ptr)> done) override;
  std::size_t bytes() const override { return bytes_; }
  void expedite() override;

  cl_mem mem() const { return mem_.get(); }
  cl_event written() const { return written_.get(); }
  // Under a cap of one kernel, reads for the host also wait for the kernel's slot: the next
  // kernel starts then too, so the read overlaps it instead of filling the gap before it (the
  // host round trip of the slot).
  void read_with(Event slot) { slot_ = std::move(slot); }
  // The compute queue whose kernel writes it (-1: a copy): a reader goes to the same queue, where
  // the driver orders it after the writer without a wait across queues.
  int queue() const { return queue_; }
  void written_on(int queue) { queue_ = queue; }
  const std::shared_ptr<Outcome>& outcome() const { return outcome_; }
  const rt::TypeOps& type() const { return type_; }
  const std::array<std::int64_t, 3>& extents() const { return extents_; }
  std::optional<std::vector<std::int64_t>> known_extents() const override {
    return std::vector<std::int64_t>(extents_.begin(), extents_.begin() + std::min(type_.rank, 3));
  }

 private:
  std::shared_ptr<OpenCLPlatform::Impl> impl_;
  Mem mem_;
  Event written_;
  std::shared_ptr<Outcome> outcome_;  // what became of the command that writes it
  Event slot_;
  int queue_ = -1;
  std::mutex read_mu_;
  std::weak_ptr<OpenCLPlatform::Impl::Callback> read_;  // the completion of the last read
  const rt::TypeOps& type_;
  std::size_t bytes_;
  std::array<std::int64_t, 3> extents_;
  std::uint64_t datum_;  // the version's name, for the trace of reads
  std::uint32_t number_;
  const char* variable_;
};

}  // namespace cei::opencl
