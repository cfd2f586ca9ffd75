// How a node runs a task whose arguments are host objects it stores: in a child process per task
// with the CE's first native version (the default: a crashing CE ends its task only), through
// the CEI runtime (its Decision Engine spreads tasks over the node's CPU and OpenCL platforms,
// inside the node's process) or directly on a pool of the node's threads.
#pragma once

#include <cei/rt/ce.hpp>
#include <cei/worker/node.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace cei::worker {

// A task's failure that is the CE ending the process that ran it (a signal, abort(), exit()):
// the node says so (`crashed` in the task's status), so that a client never runs the CE again
// inside its own process.
struct CeCrashed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Job {
  const rt::CeInfo* ce = nullptr;
  // One object per parameter (Out/InOut ones are fresh storage that receives the value), then
  // the result's storage for a non-void CE.
  std::vector<std::shared_ptr<void>> args;
  std::function<void()> started;                 // when a thread takes it up, if set
  std::function<void(std::exception_ptr)> done;  // called once, on any thread
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual void run(Job job) = 0;
  // Storage for a value of `type` that tasks of this executor may use.
  virtual std::shared_ptr<void> make_object(const rt::TypeOps& type) {
    return {type.create(), type.destroy};
  }
  virtual std::size_t workers() const = 0;
  virtual nlohmann::json platforms() const = 0;  // [{"name","kind","workers"}]
};

std::unique_ptr<Executor> make_direct_executor(unsigned threads);
// Each task in a child process of its own, `processes` at once (0: one per core); a task still
// running after `timeout_ms` (0: no limit; a CE's own timeout_ms comes first) is killed.
std::unique_ptr<Executor> make_process_executor(unsigned processes, long timeout_ms);

}  // namespace cei::worker
