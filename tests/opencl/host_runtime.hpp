// Just enough of the runtime's Data Manager to drive an OpenCL platform directly: versions that
// hold a host value and/or replicas, and tasks whose finish() can be awaited. The platform under
// test is the real one on PoCL.
#pragma once

#include <pthread.h>

#include <cei/rt/platform.hpp>

#include <atomic>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace cei::test {

class HostVersion : public rt::Version, public std::enable_shared_from_this<HostVersion> {
 public:
  explicit HostVersion(const rt::TypeOps& t) : type_(t) {}
  ~HostVersion() override {
    if (host_ && !borrowed_) type_.destroy(host_);
  }
  template <typename T>
  static std::shared_ptr<HostVersion> of(T value) {
    auto v = std::make_shared<HostVersion>(rt::type_ops<T>());
    v->publish_host(new T(std::move(value)));
    return v;
  }
  // The program's own object, read in place as the runtime does (no copy); it must outlive the
  // version.
  template <typename T>
  static std::shared_ptr<HostVersion> borrowing(const T& value) {
    auto v = std::make_shared<HostVersion>(rt::type_ops<T>());
    v->borrowed_ = true;
    v->publish_host(const_cast<T*>(&value));
    return v;
  }
  template <typename T>
  static std::shared_ptr<HostVersion> pending() {
    return std::make_shared<HostVersion>(rt::type_ops<T>());
  }

  const rt::TypeOps& type() const override { return type_; }
  std::uint64_t datum_id() const override { return 0; }
  std::uint32_t number() const override { return 0; }
  State state() const override {
    std::lock_guard l(mu_);
    return state_;
  }
  std::exception_ptr error() const override {
    std::lock_guard l(mu_);
    return error_;
  }
  void on_ready(std::function<void()> cb) override {
    {
      std::lock_guard l(mu_);
      if (state_ == State::Pending) return subscribers_.push_back(std::move(cb));
    }
    cb();
  }
  void* host() override {
    std::lock_guard l(mu_);
    return host_;
  }
  void ensure_host(std::function<void(std::exception_ptr)> done) override {
    std::shared_ptr<rt::Replica> r;
    {
      std::lock_guard l(mu_);
      if (host_ || replicas_.empty()) return done(host_ ? nullptr : error_);
      r = replicas_.front();
    }
    void* obj = type_.create();
    auto self = shared_from_this();
    r->to_host(obj, [self, obj, done](std::exception_ptr e) {
      if (e) {
        self->type_.destroy(obj);
      } else {
        // Two fetches may be in flight (an eviction's and a reader's): the first copy stays, as
        // with the runtime's one fetch per version, since a reader may hold it already.
        std::lock_guard l(self->mu_);
        if (self->host_)
          self->type_.destroy(obj);
        else
          self->host_ = obj;
      }
      done(e);
    });
  }
  std::shared_ptr<rt::Replica> replica_on(const rt::Platform& p) override {
    std::lock_guard l(mu_);
    for (auto& r : replicas_)
      if (&r->owner() == &p) return r;
    return nullptr;
  }
  std::vector<std::shared_ptr<rt::Replica>> replicas() override {
    std::lock_guard l(mu_);
    return replicas_;
  }
  void add_replica(std::shared_ptr<rt::Replica> r) override {
    std::lock_guard l(mu_);
    replicas_.push_back(std::move(r));
  }
  void drop_replica(const rt::Platform& p) override {
    std::shared_ptr<rt::Replica> dropped;  // destroyed outside the lock
    std::lock_guard l(mu_);
    for (auto it = replicas_.begin(); it != replicas_.end(); ++it)
      if (&(*it)->owner() == &p) {
        dropped = std::move(*it);
        replicas_.erase(it);
        break;
      }
  }
  std::size_t bytes() const override {
    std::lock_guard l(mu_);
    if (host_) return type_.bytes(host_);
    return replicas_.empty() ? 0 : replicas_.front()->bytes();
  }
  void publish_host(void* storage) override {
    {
      std::lock_guard l(mu_);
      host_ = storage;
    }
    ready(State::Ready);
  }
  void publish_replica(std::shared_ptr<rt::Replica> r) override {
    add_replica(std::move(r));
    ready(State::Ready);
  }
  void fail(std::exception_ptr e) override {
    {
      std::lock_guard l(mu_);
      error_ = e;
    }
    ready(State::Failed);
  }

  // Waits for the value and copies it out (fetching it from a device if needed).
  template <typename T>
  T get() {
    get_ready();
    return *static_cast<T*>(host());
  }
  // get(), moving the value out instead of copying it: the version is not read again.
  template <typename T>
  T take() {
    get_ready();
    return std::move(*static_cast<T*>(host()));
  }

 private:
  // Waits for the value and a host copy of it; rethrows a failure.
  void get_ready() {
    std::promise<std::exception_ptr> ready;
    on_ready([&] { ready.set_value(error()); });
    if (auto e = ready.get_future().get()) std::rethrow_exception(e);
    std::promise<std::exception_ptr> fetched;
    ensure_host([&](std::exception_ptr e) { fetched.set_value(e); });
    for (auto& r : replicas()) r->expedite();  // as the runtime's wait_host does
    if (auto e = fetched.get_future().get()) std::rethrow_exception(e);
  }
  void ready(State s) {
    std::vector<std::function<void()>> subs;
    {
      std::lock_guard l(mu_);
      state_ = s;
      subs.swap(subscribers_);
    }
    for (auto& cb : subs) cb();
  }

  const rt::TypeOps& type_;
  mutable std::mutex mu_;
  State state_ = State::Pending;
  std::exception_ptr error_;
  void* host_ = nullptr;
  bool borrowed_ = false;  // host_ is the program's object: not ours to destroy
  std::vector<std::shared_ptr<rt::Replica>> replicas_;
  std::vector<std::function<void()>> subscribers_;
};

class HostTask : public rt::Task {
 public:
  HostTask(const rt::CeInfo& ce, std::vector<rt::TaskArg> args) : ce_(ce), args_(std::move(args)) {}
  std::uint64_t id() const override { return 0; }
  const rt::CeInfo& ce() const override { return ce_; }
  std::vector<rt::TaskArg>& args() override { return args_; }
  const std::vector<rt::TaskArg>& args() const override { return args_; }
  void finish(std::exception_ptr error) override {
    // Like the runtime: a failed task fails its outputs.
    if (error)
      for (auto& a : args_)
        if (a.out && a.out->state() == rt::Version::State::Pending) a.out->fail(error);
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    finished_on = name;
    finish_order = finishes()++;
    done_.set_value(error);
  }
  std::string finished_on;  // the name of the thread that finished the task; read after wait()
  int finish_order = -1;    // how many tasks of this process finished before it; after wait()
  float rank = 0;           // its upward_s(); set before it is submitted
  float upward_s() const override { return rank; }
  Timing& timing() override { return timing_; }
  const Timing& timing() const override { return timing_; }
  // Blocks until the platform finishes the task; rethrows its error.
  void wait() {
    if (auto e = finished_.get()) std::rethrow_exception(e);
  }

 private:
  const rt::CeInfo& ce_;
  std::vector<rt::TaskArg> args_;
  Timing timing_;
  std::promise<std::exception_ptr> done_;
  std::shared_future<std::exception_ptr> finished_ = done_.get_future().share();
  static std::atomic<int>& finishes() {
    static std::atomic<int> n{0};
    return n;
  }
};

}  // namespace cei::test
