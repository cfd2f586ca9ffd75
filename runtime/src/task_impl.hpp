// The runtime's Task: its arguments (input and renamed output versions), its timing, and the
// bookkeeping that platforms of this library share (an input countdown and a queue link).
#pragma once

#include <cei/rt/platform.hpp>

#include <atomic>
#include <cstdint>
#include <vector>

namespace cei::rt {

class RuntimeCore;

class TaskImpl final : public Task {
 public:
  TaskImpl(RuntimeCore& rt, std::uint64_t id, const CeInfo& ce, std::size_t nargs);

  std::uint64_t id() const override { return id_; }
  const CeInfo& ce() const override { return *ce_; }
  std::vector<TaskArg>& args() override { return args_; }
  void finish(std::exception_ptr error) override;
  Timing& timing() override { return timing_; }

  // Keeps the task alive from submission until finish(), so platforms may hold raw pointers.
  TaskPtr self;
  Platform* platform = nullptr;
  // Platform scratch (the CPU platform): inputs still pending, and an intrusive queue link.
  std::atomic<int> waiting{0};
  TaskImpl* next = nullptr;
  bool fetched_inputs = false;
  int lane = -1;  // set when a platform reports the start

 private:
  RuntimeCore* rt_;
  std::uint64_t id_;
  const CeInfo* ce_;
  std::vector<TaskArg> args_;
  Timing timing_;
};

inline TaskImpl* impl(Task* t) {
  return static_cast<TaskImpl*>(t);
}

// The exception the program sees for a failed task: a TaskError naming the CE (kept as is when
// it already is one, e.g. a failure propagated from an input).
std::exception_ptr as_task_error(const CeInfo& ce, std::exception_ptr e);

}  // namespace cei::rt
