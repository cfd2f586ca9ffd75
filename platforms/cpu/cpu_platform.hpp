// The CPU Computing Platform: worker threads running the CEs' native versions on host data.
// Created at runtime start as platform `cpu` with CEI_CPU_CORES threads (default: every core).
//
//   rt.add_platform(std::make_unique<cei::rt::CpuPlatform>(rt, "cpu", 4));
#pragma once

#include "ready_queue.hpp"

#include <cei/rt/runtime.hpp>

#include <string>
#include <thread>
#include <vector>

namespace cei::rt {

class CpuPlatform final : public Platform {
 public:
  CpuPlatform(Runtime& rt, std::string name, std::size_t threads);
  ~CpuPlatform() override;

  const std::string& name() const override { return name_; }
  const char* kind() const override { return "cpu"; }
  bool can_run(const CeInfo& ce) const override { return ce.nversions > 0; }
  Forecast forecast(const Task& t) const override;
  void submit(TaskPtr t) override;
  std::size_t workers() const override { return threads_.size(); }
  void shutdown() override;

 private:
  struct Worker;
  void make_ready(TaskImpl* t);
  void work(Worker& w);
  void run(TaskImpl* t, int lane);
  void fetch_inputs(TaskImpl* t);

  Runtime& rt_;
  std::string name_;
  ReadyQueue queue_;
  std::vector<std::thread> threads_;
};

}  // namespace cei::rt
