#include "executor.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace cei::worker {
namespace {

class DirectExecutor : public Executor {
 public:
  explicit DirectExecutor(unsigned threads) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~DirectExecutor() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  void run(Job job) override {
    {
      std::lock_guard lock(mu_);
      queue_.push_back(std::move(job));
    }
    cv_.notify_one();
  }
  std::size_t workers() const override { return threads_.size(); }
  nlohmann::json platforms() const override {
    return nlohmann::json::array(
        {{{"name", "cpu"}, {"kind", "cpu"}, {"workers", threads_.size()}}});
  }

 private:
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
      std::vector<void*> raw;
      raw.reserve(job.args.size());
      for (auto& a : job.args) raw.push_back(a.get());
      std::exception_ptr error;
      try {
        if (job.ce->nversions == 0) throw std::runtime_error("the CE has no native version");
        job.ce->versions[0].invoke(raw.data());
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

std::unique_ptr<Executor> make_direct_executor(unsigned threads) {
  return std::make_unique<DirectExecutor>(threads);
}

}  // namespace cei::worker
