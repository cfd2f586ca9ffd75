// Energy meters and the attribution of energy to tasks. A meter reads a cumulative energy
// counter: Linux powercap/RAPL (CPU packages) when readable, NVML (NVIDIA GPUs, libnvidia-ml
// loaded with dlopen, no link dependency) when present. A MeterSampler reads one every period on
// its own thread; a task's energy is the counter's rise over [start, end], interpolated between
// samples, times the task's share of the metered domain. Without a meter (or samples covering the
// task) the platform's power model gives active_w * duration. Every figure says its source.
//
//   auto sampler = cei::rt::MeterSampler::open_for(cfg_platform);   // null: no meter
//   ...
//   cei::rt::Attribution a = cei::rt::attribute_energy(sampler.get(), cfg_platform.power,
//                                                      t.start, t.end, 1.0 / busy_workers);
//   timing.energy_j = a.joules;   // a.source: Rapl, Nvml or PowerModel
//
// The sampler is a plain thread with a timed wait, not a libuv loop: it has one periodic timer and
// nothing else to multiplex, so an event loop would add a dependency and no behaviour.
#pragma once

#include <cei/rt/decision/config.hpp>
#include <cei/rt/platform.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>

namespace cei::rt {

enum class EnergySource : std::uint8_t { Rapl, Nvml, PowerModel };
const char* to_string(EnergySource s);

class EnergyMeter {
 public:
  virtual ~EnergyMeter() = default;
  virtual EnergySource source() const = 0;
  virtual std::string describe() const = 0;  // "RAPL package-0,package-1", "NVML GPU 0 ..."
  // Joules since the meter opened (monotonic; counter wrap-arounds are folded in).
  virtual double read_joules() = 0;
};

// Every top-level RAPL domain under root (intel-rapl:N/energy_uj) whose counter is readable;
// null when none is (no powercap, or no permission: recent kernels make it root-only).
std::unique_ptr<EnergyMeter> open_rapl_meter(const std::string& root = "/sys/class/powercap");
// The NVIDIA GPU of that index through NVML: its total-energy counter where the GPU has one
// (Volta and later), else its power reading integrated between reads. Null without NVML.
std::unique_ptr<EnergyMeter> open_nvml_meter(unsigned device_index = 0);

struct EnergySample {
  Clock::time_point t;
  double joules;  // cumulative
};

// The counter's rise over [t0, t1], linearly interpolated between samples; nullopt when the
// samples do not cover the interval.
std::optional<double> energy_between(std::span<const EnergySample> samples, Clock::time_point t0,
                                     Clock::time_point t1);

class MeterSampler {
 public:
  MeterSampler(std::unique_ptr<EnergyMeter> meter, std::chrono::milliseconds period,
               std::size_t max_samples = 1 << 16);
  ~MeterSampler();
  MeterSampler(const MeterSampler&) = delete;
  MeterSampler& operator=(const MeterSampler&) = delete;

  // RAPL for a cpu platform, NVML (device `gpu_index`) for an opencl one whose device matches
  // "NVIDIA" or whose config names no device; null otherwise.
  static std::unique_ptr<MeterSampler> open_for(const PlatformConfig& p, unsigned gpu_index = 0);

  EnergySource source() const { return source_; }
  const EnergyMeter& meter() const { return *meter_; }
  void sample_now();
  std::optional<double> energy_between(Clock::time_point t0, Clock::time_point t1) const;

 private:
  void loop(std::chrono::milliseconds period);

  std::unique_ptr<EnergyMeter> meter_;
  EnergySource source_;
  std::size_t max_samples_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::deque<EnergySample> samples_;
  std::thread thread_;
};

struct Attribution {
  double joules = 0;
  EnergySource source = EnergySource::PowerModel;
};

// share: the fraction of the metered domain the task used (1 / tasks running at once on it).
Attribution attribute_energy(MeterSampler* sampler, const PowerModel& model,
                             Clock::time_point start, Clock::time_point end, double share = 1.0);

}  // namespace cei::rt
