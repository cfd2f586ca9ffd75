// One Computing Platform per OpenCL device (seed 003 §3.1): kernels run on an out-of-order queue,
// chained by events; values produced on the device stay there until the host or another platform
// needs them; naive mode (copy in, run, copy out, per task) is kept for comparison.
//
//   auto platforms = cei::opencl::make_platforms("", cei::opencl::Options::from_env());
//   for (auto& p : platforms) runtime.add_platform(std::move(p));   // opencl0, opencl1, ...
//   auto gpu = cei::opencl::make_platform("gpu", "NVIDIA", cei::opencl::Options::from_env());
//
// Environment (Options::from_env): CEI_OPENCL_NAIVE=1, CEI_OPENCL_MEM_CAP=64M (bytes; K/M/G
// suffixes), CEI_OPENCL_CACHE=dir (program binaries and what the last discovery found; default
// $XDG_CACHE_HOME/cei/opencl or ~/.cache/cei/opencl; "off" disables),
// CEI_OPENCL_BUILD_OPTIONS="-cl-fast-relaxed-math",
// CEI_OPENCL_IN_ORDER=1 (kernels on one in-order queue: for drivers that run out-of-order queues
// in order anyway, where waiting on the previous kernel's event costs more than queue order),
// CEI_OPENCL_QUEUES=N (kernels on N in-order queues, chained by events; default: one
// out-of-order queue on CPU devices, one in-order queue on GPUs), CEI_OPENCL_MAX_INFLIGHT=N
// (kernels running at once; default 1 on CPU devices, one per queue on in-order queues),
// CEI_OPENCL_FAIL_KERNEL=name (fault injection: that kernel fails at execution). docs/opencl.md.
#pragma once

#include <cei/rt/observer.hpp>
#include <cei/rt/platform.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cei::opencl {

struct Options {
  bool naive = false;
  bool in_order = false;  // kernels on one in-order queue instead of an out-of-order one
  // Kernels on this many in-order queues, chained by events, instead of one out-of-order queue
  // (0: the out-of-order queue, or 3 in-order ones where the device has none).
  std::size_t queues = 0;
  std::size_t mem_cap = 0;  // 0: 3/4 of the device's global memory
  std::string cache_dir;    // "" : the default location; "off": no disk cache
  std::string build_options;
  // Kernels the device runs at once; 0: by device type. A CPU device (PoCL) already spreads one
  // kernel over every core, so a second one only competes for them: 1 there, 16 elsewhere.
  // Kernels past the cap wait in the queue, chained by events: no host round trip.
  std::size_t max_inflight = 0;
  // Copies between the host and the device through pinned host memory (docs/opencl.md); unset:
  // on a GPU, not on a CPU device, whose memory is the host's (a second copy would only cost).
  std::optional<bool> pinned;
  // Fault injection for tests: launches of this kernel fail at execution, after their outputs
  // were published (a wait-list event that ends with CL_OUT_OF_RESOURCES).
  std::string fail_kernel;
  // Debug mode (CEI_OPENCL_CHECK_RESULTS): a kernel's out and result buffers are filled with
  // a pattern before it runs and read back after; elements still holding it are reported.
  bool check_results = false;
  // Called on a launching thread between the launches of a batch (a CPU task one of them made
  // ready must not wait for the rest): the runtime's factory sets rt::WorkerPool::share_next.
  void (*between_launches)() = nullptr;
  static Options from_env();
};

// What the platform moved and ran since it started (profiled with OpenCL events).
struct Stats {
  std::uint64_t bytes_to_device = 0, bytes_to_host = 0;
  std::uint64_t writes = 0, reads = 0, kernels = 0, evictions = 0;
  std::uint64_t pinned_copies = 0;  // writes and reads through pinned memory (Options::pinned)
  double write_s = 0, read_s = 0, kernel_s = 0;  // summed event durations
  double exposed_transfer_s = 0;                 // transfer time during which no kernel ran
  std::size_t resident_bytes = 0;                // device memory held now
  std::uint64_t peak_kernels = 0;                // most kernels running at once (profiled)
  // Driver callbacks that completed kernels: one per kernel on an out-of-order queue, one per
  // flush on in-order queues (a callback there completes every kernel before it).
  std::uint64_t completion_callbacks = 0;
};

struct DeviceInfo {
  std::size_t index;  // ICD order over all platforms
  std::string name, vendor, driver_version, platform_name;
  std::string type;                  // "GPU", "CPU", "accelerator" (for people: cei-info)
  std::uint64_t global_mem_bytes{};  // CL_DEVICE_GLOBAL_MEM_SIZE
  std::uint32_t compute_units{};     // CL_DEVICE_MAX_COMPUTE_UNITS
};
std::vector<DeviceInfo> list_devices();
// Devices this process has opened (a context each, for an OpenCLPlatform): 0 in a run that never
// needed one (CEI_POLICY=only:cpu). Thread-safe.
std::size_t devices_opened();

// What the platform alone knows of a task it might run, for the Decision Engine to complete.
struct Estimate {
  double input_bytes = 0;    // every input (the profiles' size key)
  double missing_bytes = 0;  // inputs with no replica on this device yet
  double transfer_s = 0;     // missing_bytes at the measured write bandwidth
  int tasks_in_flight = 0;   // submitted here and not finished
  // Until the device is open, as expected (OpenCLPlatform's opening constructor): 0 once open.
  double opening_s = 0;
  rt::Forecast own;  // from the platform's own kernel timings (clock: its first forecast)
};

// The Decision Engine's part in forecasts and energy figures, installed by the runtime's factory
// (register.cpp). Without hooks (a platform driven directly) forecast() returns Estimate::own and
// tasks carry no energy.
struct DecisionHooks {
  std::function<rt::Forecast(const rt::Task&, const Estimate&)> forecast;
  // A task's kernel is about to be enqueued: a meter counts it as running from now until
  // `energy` or `abandoned`.
  std::function<void(const rt::Task&)> started;
  // Joules of a task that just ran here (its Timing filled in; the hook says where the figure
  // comes from in it); 0 when a meter reports them later, from its own thread (the completion
  // path never reads a meter).
  std::function<double(rt::Task&)> energy;
  // A task that failed without reaching `energy` (maybe after `started`).
  std::function<void(const rt::Task&)> abandoned;
  // Nothing is in flight (Runtime::drain; shutdown when `stopping`, for the last time): report
  // what a meter has yet to.
  std::function<void(bool stopping)> settle_energy;
};

// Where the platform reports each task's start with the queue that runs it, and each copy to or
// from the host, for the trace (the runtime's observe_* of runtime.hpp, installed by its factory,
// register.cpp). Without them, or while `observing` says no, nothing is reported.
struct TraceHooks {
  bool (*observing)() noexcept = nullptr;
  void (*task_started)(rt::Task& t, const rt::Platform& p, int lane) = nullptr;
  void (*transfer)(const rt::TransferEvent& e) = nullptr;
  bool on() const { return observing && observing(); }
};

class OpenCLPlatform : public rt::Platform {
 public:
  // device_match: a substring of the device name (empty: the index-th device overall).
  OpenCLPlatform(std::string name, std::size_t device_index, Options options);
  // A platform whose device is still to be found and opened (docs/opencl.md, "Opening the
  // devices"), expected open `expected_open_s` from now: it is a candidate at once, its forecasts
  // (the decision hooks set now) count the time it still needs, and it holds the tasks it gets
  // until open() or gone(). Such a platform also builds each CE's kernel off the submitting
  // thread: a task whose kernel is not built yet waits for it here, and a CE whose build fails
  // is given back to the scheduler (Failure::Elsewhere) and refused from then on.
  OpenCLPlatform(std::string name, Options options, double expected_open_s);
  ~OpenCLPlatform() override;

  // Gives the opening platform its device (from the thread that discovered it; once): `setup`
  // installs the hooks of the open device on it (set_decision_hooks, set_trace_hooks), before
  // any task reaches the device. Then the tasks it holds go to their kernels' builds.
  void open(std::size_t device_index, const std::function<void(OpenCLPlatform&)>& setup);
  // The device is not there: every task held is given back to the scheduler (Failure::Elsewhere,
  // with `why`), and the platform runs nothing from now on. Thread-safe, once, instead of open().
  void gone(const std::string& why);
  // Whether open() has run (an opening platform's device(), estimate(), host_cores(), stats() and
  // max_inflight() need it). Thread-safe.
  bool is_open() const;

  const std::string& name() const override;
  const char* kind() const override { return "opencl"; }
  rt::Capabilities capabilities() const override {
    return {rt::Capabilities::InProcess | rt::Capabilities::MayBeLost | rt::Capabilities::Kernels};
  }
  bool can_run(const rt::CeInfo& ce) const override;
  rt::Forecast forecast(const rt::Task& t) const override;
  void submit(rt::TaskPtr t) override;
  // A task ready but held on the host while the device has enough work ahead (docs/opencl.md,
  // "Kernels in flight") is given back; one waiting for its inputs or enqueued is not.
  // Thread-safe.
  bool withdraw(rt::Task& t) override;
  std::size_t workers() const override { return 1; }
  void shutdown() override;
  void settle_energy() override;

  // Before the first forecast or submission.
  void set_decision_hooks(DecisionHooks hooks);
  void set_trace_hooks(TraceHooks hooks);
  Estimate estimate(const rt::Task& t) const;

  Stats stats() const;
  const DeviceInfo& device() const;
  const Options& options() const;
  // Options::max_inflight, or the device type's default; 0 on one in-order queue (one at a time).
  std::size_t max_inflight() const;
  // Host cores each kernel occupies: a CPU device's compute units (PoCL computes on the host's
  // cores, beside the CPU platform); 0 for a device with its own hardware.
  unsigned host_cores() const;

  struct Impl;
  struct Opening;

 private:
  Impl* ready() const;   // null while opening (acquire: impl_ is set when it is not)
  void build_kernels();  // an opening platform's builder thread
  std::shared_ptr<Impl> impl_;
  std::shared_ptr<Opening> opening_;  // opening constructor only
  std::atomic<Impl*> ready_{nullptr};
};

// Every device (name "opencl0", ...) or those whose name contains device_match, in ICD order.
std::vector<std::unique_ptr<OpenCLPlatform>> make_platforms(const std::string& device_match,
                                                            const Options& options);
// The first device whose name contains device_match, called `name`; null if none.
std::unique_ptr<OpenCLPlatform> make_platform(const std::string& name,
                                              const std::string& device_match,
                                              const Options& options);

}  // namespace cei::opencl
