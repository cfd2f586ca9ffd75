// CEI_LOG=debug: every decision and completion in the log, so "why did this task go to the GPU?"
// has an answer without a trace viewer.
#pragma once

#include <cei/rt/observer.hpp>

namespace cei::rt::trace {

class DecisionLog : public Observer {
 public:
  void task_submitted(const Task& t, std::span<const Dependency> deps,
                      std::span<const Candidate> candidates, std::size_t chosen,
                      const char* policy) override;
  void task_started(const Task& t, const Platform& p, int lane) override;
  void task_finished(const Task& t, const Platform& p, int lane, bool failed) override;
  void transfer(const TransferEvent& e) override;
  void run_finished() override {}
};

}  // namespace cei::rt::trace
