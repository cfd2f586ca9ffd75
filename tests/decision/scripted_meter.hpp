// A test double for a hardware energy counter (RAPL and NVML are not on the test machines): its
// counter follows the wall clock at a constant power, and it records which threads read it, so a
// test can tell that no task's thread ever did.
#pragma once

#include <cei/rt/decision/energy.hpp>

#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace cei::rt::test {

struct MeterLog {
  std::mutex mu;
  std::set<std::thread::id> readers;
  long reads = 0;

  bool read_by(std::thread::id id) {
    std::lock_guard g(mu);
    return readers.contains(id);
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
      log_->readers.insert(std::this_thread::get_id());
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
