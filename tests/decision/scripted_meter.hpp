// A test double for a hardware energy counter (RAPL and NVML are not on the test machines): its
// counter follows the wall clock at a constant power, and it records which threads read it, so a
// test can tell that no task's thread ever did.
#pragma once

#include <cei/rt/decision/energy.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>

namespace cei::rt::test {

// The calling thread, told apart from every other thread of the process's life (a
// std::thread::id is handed to a new thread once its thread has ended).
inline std::uint64_t thread_token() {
  static std::atomic<std::uint64_t> next{1};
  thread_local const std::uint64_t token = next++;
  return token;
}

struct MeterLog {
  std::mutex mu;
  std::set<std::uint64_t> readers;  // thread_token()s
  long reads = 0;

  bool read_by(std::uint64_t thread) {
    std::lock_guard g(mu);
    return readers.contains(thread);
  }
  long count() {
    std::lock_guard g(mu);
    return reads;
  }
};

class ScriptedMeter final : public EnergyMeter {
 public:
  // source: the meter it stands in for.
  ScriptedMeter(double watts, std::shared_ptr<MeterLog> log,
                EnergySource source = EnergySource::Rapl)
      : watts_(watts), origin_(Clock::now()), log_(std::move(log)), source_(source) {}
  EnergySource source() const override { return source_; }
  std::string describe() const override { return "scripted"; }
  double read_joules() override {
    {
      std::lock_guard g(log_->mu);
      log_->readers.insert(thread_token());
      ++log_->reads;
    }
    return watts_ * std::chrono::duration<double>(Clock::now() - origin_).count();
  }

 private:
  double watts_;
  Clock::time_point origin_;
  std::shared_ptr<MeterLog> log_;
  EnergySource source_;
};

}  // namespace cei::rt::test
