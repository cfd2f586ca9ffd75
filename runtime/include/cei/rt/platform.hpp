// What the Executor and the Decision Engine see of a Computing Platform (CPU cores, an OpenCL
// device, a remote node), and what a platform sees of tasks and data versions. Only platforms/
// includes OpenCL or cpprest headers; nothing here names them.
//
//   class MyPlatform : public cei::rt::Platform { ... };
//   runtime.add_platform(std::make_unique<MyPlatform>(...));
//
// Life of a task: the Analyzer builds it with its input versions (maybe still pending) and fresh
// output versions; the Decision Engine asks every platform that can_run() it for a forecast() and
// calls submit() on the chosen one: at once (COMPSs-Mobile style: before inputs are ready, so a
// device can chain dependencies as event wait lists), or, under a policy that sees the graph with
// a choice of platforms, once its inputs are ready (docs/policies.md, "The task graph"). The
// platform waits for any input still pending (input_waiter.hpp), runs it, publishes its outputs
// (host storage or a Replica of its own) and gives its verdict (task_context.hpp). A platform
// never hands a task to another one: it reports a verdict (done, a Failure) and the scheduler
// places the task again if it must. Writing a platform: docs/platforms.md.
#pragma once

#include <cei/rt/ce.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cei::rt {

class Platform;
class Task;
class TaskContext;

using Clock = std::chrono::steady_clock;

// Where a forecast figure comes from (shown in traces and the summary).
enum class Source : std::uint8_t { Measured, Regression, Default };

struct Forecast {
  bool feasible = true;
  double end_s = 0;       // seconds from the runtime's start: now + queue + transfers + execution
  double exec_s = 0;      // predicted execution alone
  double transfer_s = 0;  // inputs this platform lacks
  double energy_j = 0;
  double cost = 0;  // currency units
  Source time_source = Source::Default;
  Source energy_source = Source::Default;
  Source cost_source = Source::Default;
  // The platform is not open yet (a device opening in the background): a task placed there
  // would wait until it is. Under the policies by forecasts such a platform takes only the
  // tasks no open one can run.
  bool opening = false;
};

// A copy of a version's value away from the host: a device buffer, data on a remote node.
class Replica {
 public:
  virtual ~Replica() = default;
  virtual Platform& owner() = 0;
  // Copies the value into `dst` (a host object of the version's type, already constructed) and
  // then calls done(nullptr) or done(error). Must not block the caller.
  virtual void to_host(void* dst, std::function<void(std::exception_ptr)> done) = 0;
  virtual std::size_t bytes() const = 0;
  // The caller is about to block until a to_host it asked for calls done: a platform may finish
  // that copy on the caller's thread (wait for the device there, then call done) rather than on
  // a driver's callback thread, which can take a quarter millisecond to wake. Optional.
  virtual void expedite() {}
  // The value's extents (one per dimension of an array, vector or string), when the replica
  // knows them without a copy: [[cei::requires]] reads shapes there instead of fetching the value.
  // Optional.
  virtual std::optional<std::vector<std::int64_t>> known_extents() const { return std::nullopt; }
};

// One value of one datum. Produced once (by the host or a task), read by any number of tasks.
class Version {
 public:
  virtual ~Version() = default;
  virtual const TypeOps& type() const = 0;
  virtual std::uint64_t datum_id() const = 0;
  virtual std::uint32_t number() const = 0;  // datum_id/number name it: "d3v2"
  // The program's text for the variable this value belongs to, as written at the CE call that
  // made or read it ("C[i]"): a string literal ceic wrote, so it lives as long as the program;
  // null for values of no variable (results not assigned, temporaries). Fixed at creation:
  // thread-safe.
  virtual const char* variable() const { return nullptr; }

  enum class State : std::uint8_t { Pending, Ready, Failed };
  virtual State state() const = 0;
  virtual std::exception_ptr error() const = 0;
  // Calls cb once the version is Ready or Failed (at once if it already is), on any thread.
  virtual void on_ready(std::function<void()> cb) = 0;

  // The host copy, or nullptr while the value lives only in replicas (or is not produced yet).
  virtual void* host() = 0;
  // Brings a host copy into existence (fetching from a replica if needed), then calls done.
  virtual void ensure_host(std::function<void(std::exception_ptr)> done) = 0;
  virtual std::shared_ptr<Replica> replica_on(const Platform& p) = 0;
  virtual std::vector<std::shared_ptr<Replica>> replicas() = 0;
  // Adds a replica to a ready version (an input copied to a device stays there for reuse).
  virtual void add_replica(std::shared_ptr<Replica> r) = 0;
  virtual void drop_replica(const Platform& p) = 0;  // eviction
  // Size in bytes of the value (known once ready; an estimate from the task before).
  virtual std::size_t bytes() const = 0;

  // Producer side: exactly one of these, once.
  virtual void publish_host(void* storage /* owned by the version from now on */) = 0;
  virtual void publish_replica(std::shared_ptr<Replica> r) = 0;
  virtual void fail(std::exception_ptr e) = 0;
};

// Datum ids from here up belong to values the runtime made itself (a CE's result, a copy taken
// for a task); below, to the program's variables, numbered from 1 as the runtime meets them.
constexpr std::uint64_t kRuntimeDatumBase = std::uint64_t{1} << 48;

// "d3v2": datum 3 (a program variable), version 2, the unique id of a value (a worker node keys
// its data by it; data_name shows it for values of no variable); "r5v1" for the 5th value the
// runtime made (datum kRuntimeDatumBase + 5), so that no name reads "d281474976710661v1". Appended,
// not `"d" + std::to_string(...)`: GCC 12 at -O3 inlines that operator+ into a memcpy it then
// reports as overlapping (-Wrestrict, a false positive). Thread-safe.
inline std::string version_name(std::uint64_t datum, std::uint32_t number) {
  const bool made = datum >= kRuntimeDatumBase;
  std::string name(1, made ? 'r' : 'd');
  name += std::to_string(made ? datum - kRuntimeDatumBase : datum);
  name += 'v';
  name += std::to_string(number);
  return name;
}
inline std::string version_name(const Version& v) {
  return version_name(v.datum_id(), v.number());
}
// What users read in traces, graphs and logs: "C[i] v2", the variable as the program wrote it and
// the version, else version_name's short id. Not an id: two elements written `C[i]` in a loop
// share a text. Thread-safe.
inline std::string data_name(const char* variable, std::uint64_t datum, std::uint32_t number) {
  if (!variable) return version_name(datum, number);
  std::string name(variable);
  name += " v";
  name += std::to_string(number);
  return name;
}
inline std::string data_name(const Version& v) {
  return data_name(v.variable(), v.datum_id(), v.number());
}
using VersionPtr = std::shared_ptr<Version>;

struct TaskArg {
  Dir dir;
  const TypeOps* type;
  VersionPtr in;   // In, InOut: the value read
  VersionPtr out;  // Out, InOut: the value produced (renamed: new storage)
};

// How an attempt failed, as the platform that ran it tells the scheduler
// (runtime/src/scheduler.hpp): what may happen to the task next.
enum class Failure : std::uint8_t {
  // The CE or the platform failed: the CE's failure policy applies. A first retry may run on the
  // same platform (the error may have been transient), later ones go elsewhere when they can.
  Error,
  // The CE itself ended the isolated process that ran it (a signal, abort(), exit()): a retry
  // never runs on a platform that runs CEs inside the program's own process, where the same crash
  // would end the program, and goes to another platform when one can take it.
  Crash,
  // This platform cannot run the task now (it is lost, or busy past its timeout): the task is
  // placed again through the policy without it, and no retry is counted.
  Elsewhere,
  // The failure would repeat wherever the task ran again (the platform knows it): never retried,
  // whatever the CE's failure policy says.
  Final,
};

// What the scheduler needs to know of a platform, as flags (kind() is a name for people).
struct Capabilities {
  enum : unsigned {
    // Runs CEs inside the program's own process: a CE that crashes there ends the program.
    InProcess = 1u << 0,
    // May be lost mid-task (a device, a node): its unsettled tasks are tracked, and timed from
    // their submission since it does not report when they start.
    MayBeLost = 1u << 1,
    // Runs any of a CE's native versions: the platform asks the runtime which one as each task
    // starts (TaskContext::bind_version), and records it in Timing::version_index.
    PicksVersion = 1u << 2,
    // Runs the CE's OpenCL kernel, not a native version (profiles keep it as version -1).
    Kernels = 1u << 3,
  };
  unsigned flags = 0;
  bool has(unsigned f) const { return (flags & f) == f; }
};

// Which of its CE's versions a task runs (docs/language.md, "Approximate versions and
// significance"): an accurate one (the program's own result), an approximation
// ([[cei::approximate]] or the approximate kernel), or none at all: a dropped task leaves its
// inout values as they were and its dependants run on them.
enum class Quality : std::uint8_t { Accurate, Approximate, Dropped };

class Task {
 public:
  virtual ~Task() = default;
  virtual std::uint64_t id() const = 0;
  virtual const CeInfo& ce() const = 0;
  // Parameters in order (the callee first for an instance CE), then the result as an Out arg.
  // Fixed when the task is built; the platform running it may replace an argument's versions.
  virtual std::vector<TaskArg>& args() = 0;
  // The same for readers (forecasts, observers): thread-safe while the task is unsettled.
  virtual const std::vector<TaskArg>& args() const = 0;
  // The platform's verdict; frees the task's inputs and wakes dependants. `error` marks every
  // output failed (dependants are not run; the host sees the error at its next sync).
  virtual void finish(std::exception_ptr error = nullptr) = 0;
  // A failure verdict that says what may happen next (Failure): finish(error) is fail(error,
  // Failure::Error). For a task that is not the runtime's, the same as finish(error). Like
  // finish, from any thread, once per attempt: a verdict on an attempt already settled (timed
  // out, placed again) is dropped.
  virtual void fail(std::exception_ptr error, Failure /*how*/) { finish(std::move(error)); }
  // Filled by platforms for profiles, traces and the summary.
  struct Timing {
    Clock::time_point start{}, end{};
    double transfer_in_s = 0, transfer_out_s = 0;
    std::size_t bytes_in = 0, bytes_out = 0;
    // The power model's figure; 0 for a metered task, whose figure comes later through
    // Observer::task_energy (a meter covers a task only once it samples past its end).
    double energy_j = 0;
    // Where the energy came from: "rapl", "nvml" (meters) or "model" (the power model); null when
    // the platform did not say.
    const char* energy_source = nullptr;
    // Which native version ran: kKernelVersion or kApproximateKernelVersion for an OpenCL kernel.
    int version_index = -1;
    // The bytes of the task's inputs when it started (Task::take_input_bytes), the size its run
    // is profiled at; -1: not taken, TaskContext::commit takes them before it publishes. Taken
    // before any output is published: from then on the program may change or destroy its own
    // objects that some inputs are.
    double input_bytes = -1;
  };
  // The version_index of a kernel: the approximate kernel has its own profile, so that neither
  // kernel's forecasts are the mean of both.
  static constexpr int kKernelVersion = -1, kApproximateKernelVersion = -2;
  static constexpr int kernel_version(Quality q) {
    return q == Quality::Approximate ? kApproximateKernelVersion : kKernelVersion;
  }
  virtual Timing& timing() = 0;
  virtual const Timing& timing() const = 0;  // for readers (observers, energy reports)
  // Sets timing().input_bytes to the sum of the inputs' bytes(): a platform calls it when the
  // task starts (Timing::input_bytes says why then). By whoever runs the attempt.
  void take_input_bytes() {
    double sum = 0;
    for (const auto& a : args())
      if (a.in) sum += static_cast<double>(a.in->bytes());
    timing().input_bytes = sum;
  }
  // [[cei::significance]] of this task, 0..100, from its arguments: 100 for a CE without one.
  // Known once the scheduler has decided quality() (before the policy sees its candidates);
  // thread-safe from then on.
  virtual int significance() const { return 100; }
  // The version it runs: decided once, before its first placement, by Policy::quality or else
  // the significance rule; fixed afterwards (retries and moves keep it). Thread-safe from then on.
  virtual Quality quality() const { return Quality::Accurate; }
  // How long the path of known tasks that waits for this one is (its upward rank, HEFT's, from
  // the forecasts), as a class from 0 (a leaf: no task reads its results yet) up: the class grows
  // by one each time the rank doubles against the task's own forecast. Higher runs first: queues
  // that order their ready tasks use it; it only grows, until the task settles. Thread-safe.
  virtual int priority() const { return 0; }
  // That upward rank itself, in seconds of forecast work (0 when not ranked): for a platform that
  // orders a few ready tasks finely, where priority()'s classes tie (every task of a large tiled
  // factorization ranks at the top class). Only grows, until the task settles. Thread-safe.
  virtual float upward_s() const { return 0; }
  // The runtime's tasks are TaskContexts (task_context.hpp), whose attempts a platform begins
  // and gives back; null for a task that is not the runtime's (a platform driven directly by a
  // test). Virtual, not a dynamic_cast: a platform library links without the runtime's type info.
  virtual TaskContext* attempts() { return nullptr; }
};
using TaskPtr = std::shared_ptr<Task>;

class Platform {
 public:
  virtual ~Platform() = default;
  virtual const std::string& name() const = 0;  // "cpu", "opencl0", "node1"
  virtual const char* kind() const = 0;         // "cpu" | "opencl" | "remote": for people
  // Constant for the platform's life; thread-safe. The default is the careful guess for a platform
  // that does not say: it runs CEs in the program's process and may be lost.
  virtual Capabilities capabilities() const {
    return {Capabilities::InProcess | Capabilities::MayBeLost};
  }
  virtual bool can_run(const CeInfo& ce) const = 0;
  virtual Forecast forecast(const Task& t) const = 0;
  virtual void submit(TaskPtr t) = 0;  // never blocks on the task's inputs or its execution
  // Takes back a task submitted here that has not begun, when this platform runs behind its
  // forecasts and the policy would place the task elsewhere (second thoughts, docs/policies.md):
  // true when it gave it back, and then it never runs that attempt; false when it has begun, or
  // the platform cannot take tasks back (the default). Thread-safe.
  virtual bool withdraw(Task& /*t*/) { return false; }
  // t's priority() rose while it waits here, ready: a platform that orders its ready tasks queues
  // it again at its new priority (it still runs once). Optional; thread-safe.
  virtual void promote(Task& /*t*/) {}
  virtual std::size_t workers() const = 0;  // concurrent tasks it can run
  virtual void shutdown() = 0;              // finish submitted work, stop threads
  // Nothing is in flight (Runtime::drain): report the energy of the tasks that ran here that a
  // meter has yet to report (observe_task_energy, observe_platform_energy). May read a meter.
  virtual void settle_energy() {}

  // What running here costs, in currency units per GB moved to or from the platform and per
  // hour of execution: the cost model of its forecasts, which the run summary charges for what
  // ran. Set before the platform is shared (by the platform itself, or by Runtime::add_platform
  // from the launch config's prices for its name); never changed afterwards.
  struct Pricing {
    double per_gb = 0, per_hour = 0;
  };
  const Pricing& prices() const { return prices_; }
  bool prices_set() const { return prices_set_; }
  void set_prices(Pricing p) {
    prices_ = p;
    prices_set_ = true;
  }

 private:
  Pricing prices_;
  bool prices_set_ = false;
};

}  // namespace cei::rt
