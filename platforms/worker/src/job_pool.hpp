// The threads both executors run jobs on: a queue, `threads` workers, each job's done() called
// with what `execute` threw (or null). Joined on destruction after the queue drains.
//
//   JobPool pool(4, [](Job& j) { j.ce->versions[0].invoke(...); });
//   pool.push(std::move(job));
#pragma once

#include "executor.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cei::worker {

class JobPool {
 public:
  JobPool(std::size_t threads, std::function<void(Job&)> execute) : execute_(std::move(execute)) {
    for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~JobPool() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  JobPool(const JobPool&) = delete;
  JobPool& operator=(const JobPool&) = delete;

  void push(Job job) {
    {
      std::lock_guard lock(mu_);
      queue_.push_back(std::move(job));
    }
    cv_.notify_one();
  }
  std::size_t size() const { return threads_.size(); }

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
      std::exception_ptr error;
      try {
        if (job.started) job.started();
        execute_(job);
      } catch (...) {
        error = std::current_exception();
      }
      job.done(error);
    }
  }

  std::function<void(Job&)> execute_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace cei::worker
