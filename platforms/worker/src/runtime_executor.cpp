// Tasks go through the CEI runtime's api like instrumented code: the node's own Decision Engine
// spreads them over its CPU and OpenCL platforms. Stored objects are host objects of the
// runtime (Tracked arguments, read in place); outputs land in fresh objects at a sync.
#include "executor.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace cei::worker {
namespace {

class RuntimeExecutor : public Executor {
 public:
  RuntimeExecutor() {
    auto& rt = rt::Runtime::instance();
    std::size_t waiters = 0;
    for (auto* p : rt.platforms()) waiters += p->workers();
    // A waiter blocks in sync until its task's outputs are on the host: one per platform
    // worker keeps every worker busy.
    waiters = std::max<std::size_t>(4, waiters * 2);
    for (std::size_t i = 0; i < waiters; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~RuntimeExecutor() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  std::shared_ptr<void> make_object(const rt::TypeOps& type) override {
    // The runtime keys data by address: forget the address before the memory can be reused.
    return {type.create(), [d = type.destroy](void* p) {
              rt::detail::sync(p, true);
              d(p);
            }};
  }

  void run(Job job) override {
    {
      std::lock_guard lock(mu_);
      queue_.push_back(std::move(job));
    }
    cv_.notify_one();
  }

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
  static void execute(Job& job) {
    const rt::CeInfo& ce = *job.ce;
    std::vector<rt::detail::ArgSpec> specs(ce.nparams + 1);
    for (std::size_t i = 0; i < ce.nparams; ++i) {
      void* a = job.args[i].get();
      specs[i] = {rt::detail::ArgKind::Tracked, ce.params[i].dir, ce.params[i].type, a, a, nullptr};
    }
    rt::Version* result = rt::detail::submit(ce, specs.data(), ce.nparams);
    if (result) {
      void* r = job.args[ce.nparams].get();
      rt::detail::assign(*ce.result, r, r, result);
      rt::detail::sync(r, false);
    }
    for (std::size_t i = 0; i < ce.nparams; ++i) {
      if (ce.params[i].dir != rt::Dir::In) rt::detail::sync(job.args[i].get(), false);
    }
  }

  void loop() {
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      std::exception_ptr error;
      try {
        execute(job);
      } catch (...) {
        error = std::current_exception();
      }
      job.done(error);
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<Executor> make_runtime_executor() {
  return std::make_unique<RuntimeExecutor>();
}

}  // namespace cei::worker
