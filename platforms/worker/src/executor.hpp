// How a node runs a task whose arguments are host objects it stores: through the CEI runtime
// (its Decision Engine spreads tasks over the node's CPU and OpenCL platforms) or, in nodes built
// without the runtime, directly on a pool of threads with the CE's first native version.
#pragma once

#include <cei/rt/ce.hpp>
#include <cei/worker/node.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

namespace cei::worker {

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

}  // namespace cei::worker
