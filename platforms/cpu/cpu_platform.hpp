// The CPU Computing Platform: worker threads running the CEs' native versions on host data.
// Created at runtime start for every `cpu` platform of the launch config (embedded default: `cpu`
// on every core; CEI_CPU_CORES limits it). Its forecasts and energy figures come from the
// Decision Engine (cpu_forecast.cpp): a meter's figures (RAPL) reach the observers after the
// task, from the sampler's thread; the workers only record when each task ran.
//
//   PlatformConfig cfg = launch_config().platform_or_default("cpu", PlatformType::Cpu);
//   rt.add_platform(std::make_unique<cei::rt::CpuPlatform>(rt, cfg));
#pragma once

#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/energy.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_context.hpp>
#include <cei/rt/worker_pool.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cei::rt {

class CpuPlatform final : public Platform {
 public:
  // config.cores worker threads (0: every core); config.power when no meter is readable.
  CpuPlatform(Runtime& rt, PlatformConfig config);
  ~CpuPlatform() override;

  const std::string& name() const override { return name_; }
  const char* kind() const override { return "cpu"; }
  Capabilities capabilities() const override {
    return {Capabilities::InProcess | Capabilities::PicksVersion};
  }
  bool can_run(const CeInfo& ce) const override { return ce.nversions > 0; }
  Forecast forecast(const Task& t) const override;
  void submit(TaskPtr t) override;
  // A task pushed to the workers' queues and not started. Thread-safe.
  bool withdraw(Task& t) override;
  // Pushes t again at its new priority: whichever of its entries a worker reaches first runs it,
  // the other is dropped. Thread-safe.
  void promote(Task& t) override;
  std::size_t workers() const override { return executor_.workers(); }
  void shutdown() override;
  void settle_energy() override;
  // Core-seconds of the tasks running here or queued to run before t, each taken to last as long
  // as t would.
  double backlog_core_s(const Task& t) const;

 private:
  struct Ready;  // InputWaiter's callback
  void make_ready(TaskContext& t);
  // The queues cannot give an entry back: a withdrawn task's entry stays, and its reference here
  // keeps the task alive until a worker reaches it. True when t had one (this entry is dropped).
  bool drop_withdrawn(TaskContext& t);
  // What an entry of a task that promote() pushed again is: Begun (the first reached: it begins
  // the attempt), Stale (dropped), or Plain when t has no such entries.
  enum class Entry { Plain, Begun, Stale };
  Entry promoted_entry(TaskContext& t);
  void run(TaskContext& t, int lane);
  void fetch_inputs(TaskContext& t);
  Prediction predict_exec(const Task& t, double input_bytes) const;  // of the fastest version
  double ahead_of(const Task& t) const;  // tasks running, or queued to run before t
  // The Timing's energy of a task that just ran: the power model's figure, or none yet when the
  // meter reports it later (end_run).
  void account_energy(Task::Timing& tm) const;
  // The meter's run of a CE that ran over [start, end] for `task` (whether or not its attempt
  // still counts: the package spent the energy): the sampler splits its energy later and
  // reports it. Clears `run`; nothing without a meter.
  void end_run(MeterSampler::RunId& run, std::uint64_t task, Clock::time_point start,
               Clock::time_point end);

  Runtime& rt_;
  std::string name_;
  PlatformConfig config_;
  std::unique_ptr<MeterSampler> meter_;  // RAPL when readable; until shutdown
  std::mutex withdrawn_mu_;
  std::vector<TaskPtr> withdrawn_;  // one per entry left in the queues; under withdrawn_mu_
  std::atomic<std::size_t> withdrawn_count_{0};  // withdrawn_.size(), read without the lock
  // One per extra entry promote() left, with the attempt it is for (0 once begun); under
  // withdrawn_mu_, counted in withdrawn_count_ too.
  struct Promoted {
    TaskPtr task;
    int attempt;
  };
  std::vector<Promoted> promoted_;
  WorkerPool executor_;  // last: its workers use the members above until it stops
};

}  // namespace cei::rt
