// The platform's own host thread. OpenCL event callbacks run here, handed over by the driver's
// thread, and so does whatever a callback would enqueue, and the batched flushes. It never waits
// for a kernel (except in naive mode, which is synchronous by definition).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>

#include <pthread.h>

namespace cei::opencl {

class Dispatcher {
 public:
  // `name` names the thread (top -H, debuggers), cut to the 15 characters Linux keeps.
  explicit Dispatcher(const std::string& name) : thread_([this] { loop(); }) {
    pthread_setname_np(thread_.native_handle(), name.substr(0, 15).c_str());
  }
  ~Dispatcher() { stop(); }
  void post(std::function<void()> fn) {
    {
      std::lock_guard lock(mu_);
      jobs_.push_back(std::move(fn));
    }
    cv_.notify_one();
  }
  // Returns once every job posted before the call has run; not on the dispatcher's thread.
  void drain() {
    if (on_thread()) return;
    std::promise<void> done;
    post([&done] { done.set_value(); });
    done.get_future().wait();
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
