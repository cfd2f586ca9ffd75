// Tasks go through the CEI runtime's api like instrumented code: the node's own Decision Engine
// spreads them over its CPU and OpenCL platforms. Stored objects are host objects of the
// runtime (Tracked arguments, read in place); outputs land in fresh objects at a sync.
#include "executor.hpp"
#include "job_pool.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <algorithm>

namespace cei::worker {
namespace {

class RuntimeExecutor : public Executor {
 public:
  RuntimeExecutor() : pool_(waiters(), execute) {}

  std::shared_ptr<void> make_object(const rt::TypeOps& type) override {
    // The runtime keys data by address: forget the address before the memory can be reused.
    return {type.create(), [d = type.destroy](void* p) {
              rt::detail::sync(p, true);
              d(p);
            }};
  }

  void run(Job job) override { pool_.push(std::move(job)); }

  std::size_t workers() const override {
    std::size_t n = 0;
    for (auto* p : rt::Runtime::instance().platforms()) n += p->workers();
    return n;
  }

  nlohmann::json platforms() const override {
    auto out = nlohmann::json::array();
    for (auto* p : rt::Runtime::instance().platforms()) {
      out.push_back({{"name", p->name()}, {"kind", p->kind()}, {"workers", p->workers()}});
    }
    return out;
  }

 private:
  // A waiter blocks in sync until its task's outputs are on the host: two per platform worker
  // keep every worker busy.
  static std::size_t waiters() {
    std::size_t n = 0;
    for (auto* p : rt::Runtime::instance().platforms()) n += p->workers();
    return std::max<std::size_t>(4, n * 2);
  }

  static void execute(Job& job) {
    const rt::CeInfo& ce = *job.ce;
    std::vector<rt::detail::ArgSpec> specs(ce.nparams + 1);
    for (std::size_t i = 0; i < ce.nparams; ++i) {
      void* a = job.args[i].get();
      specs[i] = {rt::detail::ArgKind::Tracked, ce.params[i].dir, ce.params[i].type, a, a, nullptr};
    }
    rt::Version* result = rt::detail::submit(ce, specs.data(), ce.nparams);
    if (ce.result) {
      void* r = job.args[ce.nparams].get();
      rt::detail::assign(*ce.result, r, r, result);
      rt::detail::sync(r, false);
    } else {
      rt::detail::release(result);  // a void CE's: its outputs are synced below
    }
    for (std::size_t i = 0; i < ce.nparams; ++i) {
      if (ce.params[i].dir != rt::Dir::In) rt::detail::sync(job.args[i].get(), false);
    }
  }

  JobPool pool_;
};

}  // namespace

std::unique_ptr<Executor> make_runtime_executor() {
  return std::make_unique<RuntimeExecutor>();
}

}  // namespace cei::worker
