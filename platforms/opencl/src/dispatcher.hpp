// The platform's one host thread: every OpenCL enqueue and every piece of platform state change
// runs here, posted by submit(), readiness callbacks and OpenCL event callbacks. It never waits
// for a kernel (except in naive mode, which is synchronous by definition).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace cei::opencl {

class Dispatcher {
 public:
  Dispatcher() : thread_([this] { loop(); }) {}
  ~Dispatcher() { stop(); }
  void post(std::function<void()> fn) {
    {
      std::lock_guard lock(mu_);
      jobs_.push_back(std::move(fn));
    }
    cv_.notify_one();
  }
  bool on_thread() const { return std::this_thread::get_id() == thread_.get_id(); }
  void stop() {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable() && !on_thread()) thread_.join();
    if (on_thread()) thread_.detach();
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cei::opencl
