// What the runtime tells observers (trace writer, graph writer, run summary, progress line):
// every task's submission with the forecasts and the choice, its start and end, every transfer.
// Calls come from any thread; implementations must be thread-safe and cheap.
//
//   class Counter : public cei::rt::Observer { void task_finished(...) override { ++n; } };
//   cei::rt::add_observer(std::make_shared<Counter>());
#pragma once

#include <cei/rt/policy.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace cei::rt {

struct Dependency {
  std::uint64_t producer_task;  // the task that wrote the version
  std::string version;          // "d3v2"
};

struct TransferEvent {
  const Platform* platform;
  std::uint64_t task;   // the task that needed it (0: a host sync)
  std::string version;  // "d3v2"
  std::size_t bytes;
  bool to_device;  // host -> platform, or platform -> host
  Clock::time_point start, end;
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void task_submitted(const Task& t, std::span<const Dependency> deps,
                              std::span<const Candidate> candidates, std::size_t chosen,
                              const char* policy) = 0;
  // lane: the worker thread or device queue within the platform.
  virtual void task_started(const Task& t, const Platform& p, int lane) = 0;
  virtual void task_finished(const Task& t, const Platform& p, int lane, bool failed) = 0;
  virtual void transfer(const TransferEvent& e) = 0;
  virtual void run_finished() = 0;  // the runtime drained at exit: write files, print summaries
};

void add_observer(std::shared_ptr<Observer> o);

}  // namespace cei::rt
