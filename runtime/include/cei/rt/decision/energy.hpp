// Energy meters and the attribution of their energy to tasks. A meter reads a cumulative energy
// counter: Linux powercap/RAPL (CPU packages) when readable, NVML (NVIDIA GPUs, libnvidia-ml
// loaded with dlopen, no link dependency) when present. Reading one costs milliseconds (NVML), so
// only a MeterSampler's own thread reads it, every period; the tasks' path records the intervals
// its tasks run in an EnergyLedger (a short lock, no driver call). After each sample the ledger
// splits the energy of the segment between the two last samples: at any instant the power is
// shared by the tasks running then, so a task gets dE * ∫ [running] / k(t) dt / segment length,
// and the part of the segment where nothing runs is idle energy. A task's figure is final once the
// samples cover its end; it reaches its owner through a callback, later than the task's finish.
// Without a meter the platform's power model gives active_w * duration (model_energy).
//
//   auto sampler = cei::rt::MeterSampler::open_for(cfg_platform);   // null: no meter
//   auto run = sampler->begin();                 // before the task starts
//   ... the task runs from `start` to `end` ...
//   sampler->end(run, start, end, [](double joules) { report(joules); });   // on a later sample
//   sampler->finish();                           // at shutdown: one last sample, all final
//
// The sampler is a plain thread with a timed wait, not a libuv loop: it has one periodic timer and
// nothing else to multiplex, so an event loop would add a dependency and no behaviour.
#pragma once

#include <cei/rt/decision/config.hpp>
#include <cei/rt/platform.hpp>
#include <cei/rt/timers.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cei::rt {

enum class EnergySource : std::uint8_t { Rapl, Nvml, PowerModel };
const char* to_string(EnergySource s);

class EnergyMeter {
 public:
  virtual ~EnergyMeter() = default;
  virtual EnergySource source() const = 0;
  virtual std::string describe() const = 0;  // "RAPL package-0,package-1", "NVML GPU 0 ..."
  // Joules since the meter opened (monotonic; counter wrap-arounds are folded in). Called by one
  // thread at a time.
  virtual double read_joules() = 0;
};

// Every top-level RAPL domain under root (intel-rapl:N/energy_uj) whose counter is readable;
// null when none is (no powercap, or no permission: recent kernels make it root-only).
std::unique_ptr<EnergyMeter> open_rapl_meter(const std::string& root = "/sys/class/powercap");
// The NVIDIA GPU of that index through NVML: its total-energy counter where the GPU has one
// (Volta and later), else its power reading integrated between reads. Null without NVML.
std::unique_ptr<EnergyMeter> open_nvml_meter(unsigned device_index = 0);

// The power model's figure for a task that ran over [start, end]: active_w * duration.
double model_energy(const PowerModel& model, Clock::time_point start, Clock::time_point end);

// A metered domain's account: what the samples so far split among tasks and idle time, and what
// waits for tasks still running. tasks_j + idle_j + pending_j == total_j (the counter's rise from
// the first sample to the last).
struct EnergyTotals {
  double tasks_j = 0, idle_j = 0, pending_j = 0, total_j = 0;
  double seconds = 0;  // from the first sample to the last
};

// The intervals tasks ran in on one metered domain and the counter's samples, and the split of
// the samples' energy among them. Thread-safe: every member takes one mutex, briefly; the
// callbacks of end() run on the thread of the sample() or close() that made them final, outside
// the lock.
class EnergyLedger {
 public:
  using RunId = std::uint64_t;
  using Resolved = std::function<void(double joules)>;
  // max_pending: segments kept while a run is open; beyond it the two oldest merge (the totals
  // stay exact, the split coarser).
  explicit EnergyLedger(std::size_t max_pending = std::size_t{1} << 16);

  // A task may run from now on (stamped under the lock, so no sample taken before it can have
  // been split without it). Segments after this instant wait for the run's end().
  RunId begin();
  // The same from a known instant, clamped to the samples already split.
  RunId begin(Clock::time_point since);
  // The run's task ran over [start, end] (start no earlier than begin()'s instant: it is clamped
  // to it). on_final gets its joules once the samples cover `end`, or at close(); at once with 0
  // for a run begun after close().
  void end(RunId run, Clock::time_point start, Clock::time_point end, Resolved on_final);
  // The run's task never ran after all; its time counts as idle.
  void cancel(RunId run);

  // The counter read `joules` at t (t and joules non-decreasing from call to call). Splits every
  // segment no open run can still claim and delivers the runs that became final.
  void sample(Clock::time_point t, double joules);
  // After a last sample: splits everything, ignoring runs never ended, and delivers every run.
  void close();
  EnergyTotals totals() const;

 private:
  struct Segment {
    Clock::time_point t0, t1;
    double joules;
  };
  struct Closed {
    Clock::time_point start, end;
    double joules = 0;
    Resolved on_final;
  };
  using Ready = std::vector<std::pair<Resolved, double>>;
  Ready resolve(bool final);  // with mu_ held
  void split(const Segment& s, std::vector<Closed*>& running);

  const std::size_t max_pending_;
  mutable std::mutex mu_;
  RunId next_ = 1;
  std::map<RunId, Clock::time_point> open_;  // begun, not ended: since when
  std::map<RunId, Closed> closed_;           // ended, not final
  std::deque<Segment> pending_;              // sampled, not split yet
  bool sampled_ = false, closed_down_ = false;
  Clock::time_point first_t_{}, last_t_{}, split_to_{};
  double first_j_ = 0, last_j_ = 0, tasks_j_ = 0, idle_j_ = 0;
};

// A meter read every period on the process's timer thread (cei/rt/timers.hpp), feeding an
// EnergyLedger. Thread-safe; the task path (begin, end, cancel) never reads the meter.
class MeterSampler {
 public:
  using RunId = EnergyLedger::RunId;
  using Resolved = EnergyLedger::Resolved;
  // Reads the meter once now (the origin of the account), then every period.
  MeterSampler(std::unique_ptr<EnergyMeter> meter, std::chrono::milliseconds period,
               std::size_t max_pending = std::size_t{1} << 16);
  ~MeterSampler();  // finish()
  MeterSampler(const MeterSampler&) = delete;
  MeterSampler& operator=(const MeterSampler&) = delete;

  // RAPL for a cpu platform, NVML for an opencl one on an NVIDIA device (its NVML index given);
  // null otherwise. A meter opener set by set_meter_opener comes first.
  static std::unique_ptr<MeterSampler> open_for(const PlatformConfig& p,
                                                std::optional<unsigned> nvml_index = {});

  EnergySource source() const { return source_; }
  const std::string& describe() const { return describe_; }

  RunId begin() { return ledger_.begin(); }
  void end(RunId run, Clock::time_point start, Clock::time_point end, Resolved on_final) {
    ledger_.end(run, start, end, std::move(on_final));
  }
  void cancel(RunId run) { ledger_.cancel(run); }

  // One read now, on the caller's thread (not a task's: Runtime::drain, once every task ran), and
  // whatever it makes final.
  void settle();
  // Stops the thread, reads once more and makes every run final; idempotent.
  EnergyTotals finish();
  EnergyTotals totals() const { return ledger_.totals(); }

 private:
  void read_once();

  std::unique_ptr<EnergyMeter> meter_;
  const EnergySource source_;
  const std::string describe_;
  EnergyLedger ledger_;
  std::mutex read_mu_;  // one read at a time, its sample pushed in order
  std::mutex stop_mu_;
  bool stop_ = false;
  Timers::Id timer_;
};

// Replaces the meters open_for finds (RAPL, NVML) for every platform opened from now on: opener
// returns the platform's meter, or null for none. For tests with a scripted counter; set it
// before the runtime starts. Not thread-safe against open_for.
using MeterOpener = std::function<std::unique_ptr<EnergyMeter>(const PlatformConfig&)>;
void set_meter_opener(MeterOpener opener);

}  // namespace cei::rt
