// Runtime::Impl: the Executor (builds tasks, asks platforms for forecasts, lets the policy pick,
// submits) around the Analyzer, plus the in-flight accounting that drains and back-pressure use.
#pragma once

#include "analyzer.hpp"
#include "task_impl.hpp"

#include <cei/rt/runtime.hpp>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace cei::rt {

class RuntimeCore {
 public:
  RuntimeCore();

  Version* submit(const CeInfo& ce, detail::ArgSpec* args, std::size_t n);
  Analyzer& analyzer() { return analyzer_; }

  void observe_submitted(TaskImpl& t, std::span<const Candidate> candidates, std::size_t chosen);
  void observe(TaskImpl& t, bool failed);
  void task_done() noexcept;
  // Waits until at most `target` tasks are in flight.
  void wait_in_flight(std::size_t target);
  void barrier();
  void shutdown();

  Clock::time_point start;
  std::vector<std::unique_ptr<Platform>> owned;
  std::vector<Platform*> platforms;
  std::unique_ptr<Policy> policy;
  std::unique_ptr<Profiles> profiles;
  std::atomic<std::size_t> in_flight{0};

 private:
  void dispatch(TaskImpl& t);

  Analyzer analyzer_;
  std::atomic<std::uint64_t> next_task_{1};
  std::size_t max_in_flight_;
  std::mutex flight_mu_;
  std::condition_variable flight_cv_;
  std::atomic<std::size_t> flight_target_{0};
  std::atomic<int> flight_waiters_{0};
  bool stopped_ = false;
};

}  // namespace cei::rt
