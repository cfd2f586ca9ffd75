// docs/platforms.md's worked example, compiled and run: a platform written on the public SDK
// alone (one thread of its own running the CEs' native versions) takes every task of a program,
// whose results equal the sequential program's, and whose CE exceptions reach the program.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/native.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_context.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

using namespace test_ces;
namespace rt = cei::rt;

namespace {

// --- the example (docs/platforms.md) ---
class OneThread final : public rt::Platform {
 public:
  OneThread() : thread_([this] { loop(); }) {}
  ~OneThread() override { shutdown(); }

  const std::string& name() const override { return name_; }
  const char* kind() const override { return "cpu"; }
  // The host's own cores: never lost.
  rt::Capabilities capabilities() const override { return {rt::Capabilities::InProcess}; }
  bool can_run(const rt::CeInfo& ce) const override { return ce.nversions > 0; }
  rt::Forecast forecast(const rt::Task&) const override { return {}; }
  std::size_t workers() const override { return 1; }

  void submit(rt::TaskPtr task) override {
    rt::TaskContext& t = rt::context(*task);
    // Queued once every input is in: by the last one to arrive, or here if none is pending.
    if (!t.inputs().until_ready(t, [this](rt::Task& ready) { queue(rt::context(ready)); }))
      queue(t);
  }

  void shutdown() override {
    {
      std::lock_guard g(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  std::atomic<int> ran{0};

 private:
  void queue(rt::TaskContext& t) {
    {
      std::lock_guard g(mu_);
      queue_.push_back(&t);  // the runtime keeps the task alive until it is settled
    }
    cv_.notify_one();
  }

  void loop() {
    std::unique_lock g(mu_);
    for (;;) {
      cv_.wait(g, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      rt::TaskContext* t = queue_.front();
      queue_.pop_front();
      g.unlock();
      run(*t);
      g.lock();
    }
  }

  // Every input is on the host here (this example runs next to no device).
  void run(rt::TaskContext& t) {
    const int attempt = t.attempt();
    auto& args = t.args();
    for (auto& a : args)
      if (a.in && a.in->error()) return t.fail(attempt, a.in->error());  // not run
    // The CE writes fresh storage: an input's value stays as it was for its other readers.
    std::vector<void*> ptrs(args.size()), fresh(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
      const rt::TaskArg& a = args[i];
      if (a.dir == rt::Dir::In) {
        ptrs[i] = a.in->host();
        continue;
      }
      ptrs[i] = fresh[i] = a.type->create();
      if (a.dir == rt::Dir::InOut) a.type->copy(fresh[i], a.in->host());
    }
    auto drop = [&] {
      for (std::size_t i = 0; i < args.size(); ++i)
        if (fresh[i]) args[i].type->destroy(fresh[i]);
    };
    ++ran;
    try {
      rt::invoke_native(t.ce(), 0, ptrs.data());
    } catch (...) {
      drop();
      if (t.claim(attempt)) t.threw(std::current_exception());  // the program sees it
      return;
    }
    const bool committed = t.commit(attempt, [&] {
      for (std::size_t i = 0; i < args.size(); ++i)
        if (fresh[i]) args[i].out->publish_host(fresh[i]);
    });
    if (!committed) drop();  // settled meanwhile (a timeout): a late result
  }

  std::string name_ = "one";
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<rt::TaskContext*> queue_;
  bool stop_ = false;
  std::thread thread_;  // last: it uses the members above
};
// --- end of the example ---

// Every task to the platform named `name` when it can run it.
class Only final : public rt::Policy {
 public:
  const char* name() const override { return "only-one"; }
  std::size_t choose(const rt::CeInfo&, std::span<const rt::Candidate> cs) override {
    for (std::size_t i = 0; i < cs.size(); ++i)
      if (cs[i].platform->name() == "one") return i;
    return 0;
  }
  bool by_forecasts() const override { return false; }  // an order, not a forecast
};

}  // namespace

TEST(PlatformSdk, TheWorkedExampleRunsAProgramAsTheSequentialOneDoes) {
  auto& runtime = rt::Runtime::instance();
  auto owned = std::make_unique<OneThread>();
  OneThread& one = *owned;
  runtime.add_platform(std::move(owned));
  runtime.set_policy(std::make_unique<Only>());

  Vec a{1, 2, 3}, b{4, 5}, c;
  Vec sa = a, sb = b, sc;  // the sequential program
  for (int k = 0; k < 10; ++k) {
    rt::call<void>(scale_add, rt::inout<Vec>(a), rt::in<Vec>(b), rt::in<std::int64_t>(k));
    rt::call<void>(derive, rt::in<Vec>(a), rt::out<Vec>(b), rt::in<std::int64_t>(k));
    ops::scale_add(sa, sb, k);
    ops::derive(sa, sb, k);
  }
  rt::call_into<Vec>(rt::out<Vec>(c), combine, rt::in<Vec>(a), rt::in<Vec>(b));
  sc = ops::combine(sa, sb);
  EXPECT_EQ(rt::sync(a), sa);
  EXPECT_EQ(rt::sync(b), sb);
  EXPECT_EQ(rt::sync(c), sc);
  EXPECT_EQ(one.ran.load(), 21);

  Vec negative{-1};
  rt::call<void>(fail_if_negative, rt::in<Vec>(negative));
  EXPECT_THROW(cei::barrier(), std::invalid_argument);  // the CE's own exception
  EXPECT_EQ(one.ran.load(), 22);
}
