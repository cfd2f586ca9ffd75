// A platform killed mid-run: a test platform (as a remote node would) runs a few tasks, then stops
// answering; once it is reported lost, its unfinished tasks run elsewhere and every result is
// right.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

using namespace test_ces;
namespace rt = cei::rt;

namespace {

void add_index(void* const* a) {  // inout x, in k: x = x * 2 + k
  at<std::int64_t>(a, 0) = at<std::int64_t>(a, 0) * 2 + at<std::int64_t>(a, 1);
}
const rt::ParamInfo add_index_params[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()},
                                          {"k", rt::Dir::In, &rt::type_ops<std::int64_t>()}};
const rt::NativeVersion add_index_versions[] = {{"ops", &add_index}};
const rt::CeInfo lossy{"add_index", "LossCEI",          false, add_index_params, 2,
                       nullptr,     add_index_versions, 1,     nullptr};

// Runs tasks of `lossy` on one thread of its own until it has answered `answers` of them; then
// it takes tasks and never answers (a node gone silent).
class FlakyPlatform final : public rt::Platform {
 public:
  explicit FlakyPlatform(int answers) : answers_left_(answers), thread_([this] { work(); }) {}
  ~FlakyPlatform() override { shutdown(); }

  const std::string& name() const override { return name_; }
  const char* kind() const override { return "remote"; }
  bool can_run(const rt::CeInfo& ce) const override { return &ce == &lossy; }
  rt::Forecast forecast(const rt::Task&) const override { return {}; }  // free and instant
  void submit(rt::TaskPtr t) override {
    ++received;
    {
      std::lock_guard g(mu_);
      queue_.push_back(std::move(t));
    }
    cv_.notify_one();
  }
  std::size_t workers() const override { return 1; }
  void shutdown() override {
    {
      std::lock_guard g(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  std::atomic<int> received{0};
  std::atomic<int> answered{0};

 private:
  void work() {
    std::unique_lock g(mu_);
    for (;;) {
      cv_.wait(g, [&] { return stop_ || (!queue_.empty() && answers_left_ > 0); });
      if (stop_) return;
      rt::TaskPtr t = std::move(queue_.front());
      queue_.pop_front();
      --answers_left_;
      g.unlock();
      run(*t);
      g.lock();
    }
  }
  void run(rt::Task& t) {
    auto& args = t.args();
    for (auto& a : args)  // inputs are produced in order here; wait for them like a device would
      while (a.in->state() == rt::Version::State::Pending) std::this_thread::yield();
    auto* x = static_cast<std::int64_t*>(args[0].type->create());
    args[0].type->copy(x, args[0].in->host());
    void* ptrs[] = {x, args[1].in->host()};
    add_index(ptrs);
    args[0].out->publish_host(x);
    ++answered;
    t.finish(nullptr);
  }

  std::string name_ = "flaky";
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<rt::TaskPtr> queue_;  // what it holds when it goes silent: never answered
  int answers_left_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

TEST(PlatformLoss, UnfinishedTasksRunElsewhereWithRightResults) {
  auto& runtime = rt::Runtime::instance();
  auto owned = std::make_unique<FlakyPlatform>(5);
  FlakyPlatform& flaky = *owned;
  runtime.add_platform(std::move(owned));

  constexpr int kChains = 8, kSteps = 6;
  std::int64_t x[kChains] = {};
  for (int step = 0; step < kSteps; ++step)
    for (int c = 0; c < kChains; ++c)
      rt::call<void>(lossy, rt::inout<std::int64_t>(x[c]), rt::in<std::int64_t>(c + step));
  // It answers 5 tasks, then holds the rest silently.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((flaky.answered < 5 || flaky.received <= 5) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(flaky.answered.load(), 5);
  ASSERT_GT(flaky.received.load(), 5) << "the policy sent nothing more to the platform";
  runtime.platform_failed(flaky);
  cei::barrier();
  for (int c = 0; c < kChains; ++c) {
    std::int64_t expect = 0;
    for (int step = 0; step < kSteps; ++step) expect = expect * 2 + c + step;
    EXPECT_EQ(x[c], expect) << "chain " << c;
  }
  EXPECT_EQ(flaky.answered.load(), 5);
}
